// @ts-check
/**
 * Holds N idle MCP sessions open for the memory workload, in its own process so that closing
 * them ends every connection too (the harness's keep-alive pool would otherwise keep idle sockets
 * to the hub for a minute and blur the "after" reading). Driven over IPC by bench/run.mjs's
 * memory workload (bench/workloads/memory.mjs):
 *
 *   node bench/lib/session-holder.mjs <url> <n> <maxOpenMs>
 *   → { opened, seconds }   once n sessions are initialized (each with its GET stream open)
 *   ← 'close'
 *   → { closed, seconds }   after a DELETE for each, then it exits
 */
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, nText, maxText] = process.argv.slice(2);
if (!url || !process.send) {
  console.error('session-holder: run by bench/run.mjs over IPC');
  process.exit(2);
}
const n = Number(nText);
const maxOpenMs = Number(maxText);

/** @type {Array<{ client: Client, transport: StreamableHTTPClientTransport }>} */
const open = [];

async function openOne() {
  const client = new Client({ name: 'patchbay-bench-idle', version: '1.0.0' });
  client.onerror = () => {};
  const transport = new StreamableHTTPClientTransport(new URL(url ?? ''));
  await client.connect(transport);
  return { client, transport };
}

try {
  const t0 = performance.now();
  // 16 at a time; bounded in time so a slow hub cannot stall the bench.
  while (open.length < n && performance.now() - t0 < maxOpenMs) {
    const batch = Math.min(16, n - open.length);
    open.push(...(await Promise.all(Array.from({ length: batch }, openOne))));
  }
  // Usable sessions, not half-open ones: one call on a few of them.
  for (const s of open.slice(0, 4)) {
    const res = await s.client.callTool({ name: 'echo', arguments: { text: 'still there' } });
    if (/** @type {any} */ (res).content?.[0]?.text !== 'still there')
      throw new Error(`echo returned ${JSON.stringify(res).slice(0, 200)}`);
  }
  process.send({ opened: open.length, seconds: (performance.now() - t0) / 1000 });
} catch (err) {
  process.send({ error: `opening sessions: ${/** @type {Error} */ (err).message}` });
  process.exit(1);
}

process.on('message', async (m) => {
  if (m !== 'close') return;
  const t0 = performance.now();
  try {
    for (let i = 0; i < open.length; i += 16) {
      await Promise.all(
        open.slice(i, i + 16).map(async (s) => {
          await s.transport.terminateSession();
          await s.client.close();
        }),
      );
    }
    process.send?.({ closed: open.length, seconds: (performance.now() - t0) / 1000 }, () =>
      process.exit(0),
    );
  } catch (err) {
    process.send?.({ error: `closing sessions: ${/** @type {Error} */ (err).message}` }, () =>
      process.exit(1),
    );
  }
});
