/**
 * Patchbay's demo MCP server: a small stdio server shipped inside Patchbay (no download, no npx)
 * that a fresh data dir starts with (core/config/first-run.ts), so a new user sees a working
 * server, its tools in the playground and live traffic in the inspector at once. Run as
 * `node dist/main/demo/demo-server.js` (the desktop app: its executable in Node mode).
 */
import { createDemoServer, PATCHBAY_DEMO_NAME } from './demo-handler.js';

const { peer, stop } = createDemoServer();
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => peer.push(chunk));
process.stdin.on('end', () => {
  stop();
  process.exit(0);
});
process.stderr.write(`${PATCHBAY_DEMO_NAME}: ready on stdio\n`);
