import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os'; import path from 'node:path';
process.env.PATCHBAY_LOG_LEVEL = 'error';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pb-blob-'));
const ECHO = '/work/main/bench/echo-server.mjs';
writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ mcpServers: { off: { command: process.execPath, args: [ECHO], secretCheck: 'off' }, warn: { command: process.execPath, args: [ECHO] }, mask: { command: process.execPath, args: [ECHO], secretCheck: 'mask' } }, audit: { enabled: false } }));
writeFileSync(path.join(dataDir, 'secrets.json'), JSON.stringify({ version: 1, secrets: { K: 'bench-secret-7f3a9c1e5b2d4086', K2: 'another-bench-secret-value-1' } }));
const { startEngine } = await import('/work/main/dist/main/core/engine/engine.js');
const engine = await startEngine({ dataDir, port: 0, auth: false, capture: process.argv.includes('--no-capture') ? false : undefined });
async function run(server) {
  const c = new Client({ name: 'b', version: '1' }); await c.connect(new StreamableHTTPClientTransport(new URL(`${engine.url}/mcp/${server}`)));
  for (let i = 0; i < 5; i++) await c.callTool({ name: 'blob', arguments: { bytes: 1 << 20 } });
  const t0 = performance.now(); const cpu0 = process.cpuUsage();
  for (let i = 0; i < 40; i++) await c.callTool({ name: 'blob', arguments: { bytes: 1 << 20 } });
  const ms = (performance.now() - t0) / 40; const cpu = process.cpuUsage(cpu0); await c.close();
  return `${server}: ${ms.toFixed(2)} ms/call, process CPU ${((cpu.user + cpu.system) / 40 / 1000).toFixed(2)} ms/call`;
}
for (let r = 0; r < 2; r++) for (const s of ['off', 'warn', 'mask']) console.log(r, await run(s));
await engine.close();
