/**
 * Sessions opened at once, each with a child of its own (issue 17, "each answered as soon as its
 * child is ready"): nothing in the hub may hold one session's `initialize` answer behind another's
 * child. Structural, not timed: a child that cannot start until this test says so (the probe's
 * PROBE_INIT_GATE) must not keep the other sessions' answers back, and is answered itself once it
 * can be. Real hub, real HTTP, real children.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { post } from '../helpers/mcp-http.js';
import { probeServer } from '../helpers/server-entries.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { withTimeout } from '../helpers/waits.js';

function initialize(h: TestHub, client: string): Promise<Response> {
  return post(h, 'probe', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: client, version: '1.0.0' } } });
}

it('a slow-starting child holds back no other session: theirs are answered while it is pending, and it is answered once ready', async () => {
  const dir = await tempDir('patchbay-startup-order-');
  const gate = path.join(dir, 'gate');
  const h = await startHub({ servers: { probe: probeServer({ env: { PROBE_INIT_GATE: gate } }) } });

  let slowSettled = false;
  const slow = initialize(h, 'slow-start').finally(() => (slowSettled = true));
  // Opened after the slow one, at once, each needing a child of its own.
  const fast = await withTimeout(Promise.all(Array.from({ length: 6 }, (_, i) => initialize(h, `fast-${i}`))), 60_000, 'the fast sessions');
  for (const res of fast) {
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeTruthy();
    expect(JSON.stringify(await res.json())).toContain('patchbay-probe');
  }
  const ids = new Set(fast.map((r) => r.headers.get('mcp-session-id')));
  expect(ids.size).toBe(6);
  // The slow child has not been let go yet, so its session cannot have been answered.
  expect(existsSync(gate)).toBe(false);
  expect(slowSettled).toBe(false);

  writeFileSync(gate, '');
  const res = await withTimeout(slow, 30_000, 'the slow session once its child may start');
  expect(res.status).toBe(200);
  expect(ids.has(res.headers.get('mcp-session-id'))).toBe(false);
  expect(JSON.stringify(await res.json())).toContain('patchbay-probe');
}, 120_000);
