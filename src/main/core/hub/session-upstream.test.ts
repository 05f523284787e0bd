/**
 * A session that ends while its upstream is still being opened (a client that gave up during a
 * slow start: mcp-endpoint.ts closes the session when its initialize POST goes away) takes the
 * new connection with it: the child is stopped, never kept unowned. A real child process (the
 * probe fixture); the only seam is when `connect` resolves, which the test decides.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../../../test/helpers/processes.js';
import { FIXTURES_DIR } from '../../../../test/helpers/repo-paths.js';
import { waitFor } from '../../../../test/helpers/waits.js';
import { StdioUpstream } from '../upstream/stdio-upstream.js';
import { Session, type SessionHost } from './session.js';

describe('a session closed while its upstream starts', () => {
  it('closes the connection once it opens, and its initialize is answered with an error', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const child = new StdioUpstream({ serverId: 'probe', command: process.execPath, args: [path.join(FIXTURES_DIR, 'probe-server.mjs')], env: { PATH: process.env.PATH ?? '' } });
    const pid = child.pid!;
    expect(isAlive(pid)).toBe(true);
    const host: SessionHost = {
      connect: async () => {
        await gate;
        return child;
      },
      requestTimeoutMs: 10_000,
      startupTimeoutMs: 10_000,
      streamLimits: { maxEvents: 100, maxBytes: 1 << 20 },
      ended: () => undefined,
      maxRestarts: 3,
      restartWindowMs: 60_000,
      watch: () => undefined,
    };
    const session = new Session('s', 'probe', host);
    const answer = session.initialize({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }, undefined);
    await session.close();
    release();
    expect((await answer).ok).toBe(false);
    await waitFor(() => !isAlive(pid), 'the child to be stopped');
    expect(child.closed).toBe(true);
  });
});
