/**
 * Issue 25, the sandbox's `subprocesses` and host-list settings (docs/sandbox.md), with real
 * bubblewrap and the hostile server (test/fixtures/hostile-server.mjs):
 * - `"subprocesses": false`: the server's spawn of /bin/true fails (the seccomp filter,
 *   seccomp.ts), while the server itself — Node, with its threads — answers; the default lets it run;
 * - `"network": [hosts]`: the server reaches an allowed loopback listener only through the hub's
 *   proxy (host-proxy.ts; the test maps `api.localtest` to 127.0.0.1 through the engine's
 *   resolver), is refused another host with a 403 and the denial is reported, and cannot reach
 *   the listener directly (its own network namespace).
 * Where bubblewrap cannot run, the suite's title says why (the doctor's message).
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../src/main/core/home/paths.js';
import type { HostDenial } from '../../src/main/core/sandbox/host-proxy.js';
import { sandboxSupport } from '../../src/main/core/sandbox/sandbox-support.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { connect, type TestClient } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';

const HOSTILE = path.join(FIXTURES_DIR, 'hostile-server.mjs');
const support = await sandboxSupport();

let lastHub: TestHub | undefined;

async function hostile(sandbox: unknown, denials: HostDenial[] = []): Promise<TestClient> {
  const hub = (lastHub = await startHub({
    servers: { hostile: { command: process.execPath, args: [HOSTILE], sandbox } as never },
    engine: {
      sandbox: {
        // The proxy resolves names itself: here one name is this machine's loopback.
        resolve: (host) => (host === 'api.localtest' ? Promise.resolve('127.0.0.1') : Promise.reject(new Error(`no such host: ${host}`))),
        onDenied: (d) => denials.push(d),
      },
    },
  }));
  return connect(hub, 'hostile');
}

describe.runIf(support.available)(`sandboxed servers: subprocesses and host lists (${support.detail})`, () => {
  let port: number;
  let listener: http.Server;
  beforeAll(async () => {
    listener = http.createServer((_req, res) => res.end('hello from the allowed host')).listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    port = (listener.address() as net.AddressInfo).port;
  });
  // onCleanup runs after each test: the listener is the whole suite's.
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it('"subprocesses": false — spawning fails with EPERM, the server itself answers; the default lets it spawn', async () => {
    const blocked = await hostile({ subprocesses: false });
    expect(await blocked.tool('run_true')).toBe('error: EPERM');
    expect(JSON.parse(await blocked.tool('whoami'))).toMatchObject({ pid: expect.any(Number) });
    // Node's own threads (the worker pool behind fs) keep working.
    expect(await blocked.tool('read_file', { path: HOSTILE })).toContain('hostile');
    const allowed = await hostile(true);
    expect(await allowed.tool('run_true')).toBe('ran');
  });

  it('a host list — the allowed host through the proxy (CONNECT and plain GET), another refused and reported, no direct way out', async () => {
    const denials: HostDenial[] = [];
    const client = await hostile({ network: [`api.localtest:${port}`] }, denials);
    expect(await client.tool('via_proxy', { host: 'api.localtest', port })).toBe('hello from the allowed host');
    expect(await client.tool('via_proxy', { host: 'api.localtest', port, mode: 'get' })).toBe('hello from the allowed host');
    const refused = await client.tool('via_proxy', { host: 'evil.localtest', port });
    expect(refused).toMatch(/^refused: HTTP\/1\.1 403 Forbidden denied by Patchbay: evil\.localtest:\d+ is not in server 'hostile''s sandbox network list/);
    expect(await client.tool('via_proxy', { host: 'api.localtest', port: 443 })).toMatch(/^refused: HTTP\/1\.1 403/);
    expect(denials).toEqual([
      expect.objectContaining({ server: 'hostile', host: 'evil.localtest', port }),
      expect.objectContaining({ server: 'hostile', host: 'api.localtest', port: 443 }),
    ]);
    // Each denial is a policy line of the audit trail.
    const auditFile = path.join(dataPaths(lastHub!.dataDir).auditDir, 'audit.jsonl');
    const policy = await waitFor(async () => {
      const lines = (await readFile(auditFile, 'utf8').catch(() => '')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { kind: string; server: string; target?: string; outcome: string });
      const found = lines.filter((l) => l.kind === 'policy');
      return found.length >= 2 ? found : undefined;
    }, 'two denied hosts in the audit trail');
    expect(policy.map((l) => [l.server, l.target])).toEqual([['hostile', `evil.localtest:${port}`], ['hostile', 'api.localtest:443']]);
    expect(policy[0]!.outcome).toMatch(/^denied host: /);
    // Without the proxy: the sandbox's own loopback, where nothing of the host listens.
    expect(await client.tool('connect', { host: '127.0.0.1', port })).toBe('error: ECONNREFUSED');
  });

  it('a host list with "subprocesses": false — both hold (the forwarder starts the server under the filter)', async () => {
    const client = await hostile({ network: [`api.localtest:${port}`], subprocesses: false });
    expect(await client.tool('via_proxy', { host: 'api.localtest', port })).toBe('hello from the allowed host');
    expect(await client.tool('run_true')).toBe('error: EPERM');
  });
});
