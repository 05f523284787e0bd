/**
 * A real engine (port 0, temp data dir) whose clients API manages a temp machine's clients, with
 * helpers to call the API over HTTP and to use a server through the hub. Closed after each test.
 */
import type { RunningEngine } from '../../src/main/core/engine/engine.js';
import type { RelayLauncher } from '../../src/main/core/clients/patchbay-entry.js';
import { apiCall } from '../helpers/hub-api.js';
import type { RemoteServerEntry, ServerEntry } from '../helpers/server-entries.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import type { TempMachine } from './client-fixtures.js';

export interface ClientsEngine {
  engine: RunningEngine;
  token: string;
  /** Calls the API over HTTP; resolves with the `{ok, …}` answer. */
  call<T = unknown>(name: string, input?: unknown): Promise<{ ok: true; value: T } | { ok: false; code: string; message: string }>;
  /** The engine as the helpers' TestClient wants it. */
  asTestHub(): TestHub;
}

export async function startClientsEngine(machine: TempMachine, servers: Record<string, ServerEntry | RemoteServerEntry>, launcher?: RelayLauncher): Promise<ClientsEngine> {
  const hub = await startHub({
    servers,
    // The machine's own data dir: machine.cleanup() removes it with the rest of the machine.
    dataDir: machine.dataDir,
    engine: { clients: { host: machine.host, loginPath: async () => undefined, ...(launcher ? { launcher } : {}) } },
  });
  return {
    engine: hub.engine,
    token: hub.token!,
    // The answer is the API's own discriminated union; apiCall's type is the looser wire shape.
    call: (name, input = {}) => apiCall(hub, name, input) as never,
    asTestHub: () => hub,
  };
}

/** The value of an API answer, or a thrown error with its code and message. */
export function valueOf<T>(answer: { ok: true; value: T } | { ok: false; code: string; message: string }): T {
  if (!answer.ok) throw new Error(`${answer.code}: ${answer.message}`);
  return answer.value;
}
