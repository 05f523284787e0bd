/**
 * A real engine (port 0, temp data dir) whose clients API manages a temp machine's clients, with
 * helpers to call the API over HTTP and to use a server through the hub. Closed after each test.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startEngine, type RunningEngine } from '../../src/main/core/engine/engine.js';
import type { RelayLauncher } from '../../src/main/core/clients/patchbay-entry.js';
import { onCleanup, type TestHub } from '../helpers/hub-harness.js';
import type { TempMachine } from './client-fixtures.js';

export interface ClientsEngine {
  engine: RunningEngine;
  token: string;
  /** Calls the API over HTTP; resolves with the `{ok, …}` answer. */
  call<T = unknown>(name: string, input?: unknown): Promise<{ ok: true; value: T } | { ok: false; code: string; message: string }>;
  /** The engine as the hub harness's TestClient wants it. */
  asTestHub(): TestHub;
}

export async function startClientsEngine(machine: TempMachine, servers: Record<string, unknown>, launcher?: RelayLauncher): Promise<ClientsEngine> {
  process.env.PATCHBAY_NO_LOGIN_SHELL = '1';
  await mkdir(machine.dataDir, { recursive: true });
  await writeFile(path.join(machine.dataDir, 'config.json'), JSON.stringify({ mcpServers: servers }, null, 2));
  const engine = await startEngine({
    dataDir: machine.dataDir,
    port: 0,
    clients: { host: machine.host, loginPath: async () => undefined, ...(launcher ? { launcher } : {}) },
  });
  onCleanup(() => engine.close());
  const token = readFileSync(engine.tokenFile, 'utf8').trim();
  return {
    engine,
    token,
    async call(name, input = {}) {
      const res = await fetch(`${engine.url}/api/call/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(input),
      });
      return (await res.json()) as never;
    },
    asTestHub: () => ({
      engine,
      url: engine.url,
      port: engine.port,
      token,
      dataDir: machine.dataDir,
      mcpUrl: (id) => `${engine.url}/mcp/${encodeURIComponent(id)}`,
      authHeader: () => ({ Authorization: `Bearer ${token}` }),
      close: () => engine.close(),
    }),
  };
}

/** The value of an API answer, or a thrown error with its code and message. */
export function valueOf<T>(answer: { ok: true; value: T } | { ok: false; code: string; message: string }): T {
  if (!answer.ok) throw new Error(`${answer.code}: ${answer.message}`);
  return answer.value;
}
