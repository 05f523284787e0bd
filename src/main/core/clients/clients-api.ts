/**
 * The clients part of the engine's API: thin handlers over the clients service and the doctor,
 * turning our own failures into `{ok: false, code, message}` answers. The API takes no file paths
 * (a caller cannot pick which file Patchbay writes); the CLI's `--file` is local-only.
 */
import { clientsContract } from '../../../shared/api/clients-contract.js';
import { ApiError, type ApiRegistry, type Handlers } from '../api/api-registry.js';
import { ConfigError } from '../config/config-store.js';
import type { ClientId } from './client-defs.js';
import type { ClientsRuntime } from './clients-runtime.js';
import { ClientsError } from './clients-error.js';
import { runDoctor } from './doctor.js';
import { applyFix } from './doctor-fixes.js';

async function guarded<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (err) {
    if (err instanceof ClientsError) throw new ApiError(err.code, err.message);
    if (err instanceof ConfigError) throw new ApiError(err.code, err.message);
    throw err;
  }
}

/** `api` only for the `clients.written` event; registration is engine/register-api.ts's. */
export function clientsHandlers(api: ApiRegistry, runtime: ClientsRuntime): Handlers<typeof clientsContract> {
  const { service, doctor } = runtime;
  const written = (client: ClientId, file: string, action: 'export' | 'rollback' | 'import' | 'fix'): void =>
    api.emit(clientsContract, 'clients.written', { client, file, action });
  return {
    'clients.list': () => guarded(() => service.list()),
    'clients.previewExport': ({ client, ...request }) => guarded(() => service.previewExport(client, request)),
    'clients.export': ({ client, ...request }) =>
      guarded(async () => {
        const outcome = await service.export(client, request);
        if (outcome.written) written(client, outcome.file, 'export');
        return outcome;
      }),
    'clients.backups': ({ client }) => guarded(() => service.backups(client)),
    'clients.rollback': ({ client, backupId }) =>
      guarded(async () => {
        const outcome = await service.rollback(client, backupId);
        written(client, outcome.file, 'rollback');
        return outcome;
      }),
    'clients.import': ({ client, ...request }) =>
      guarded(async () => {
        const outcome = await service.import(client, request);
        if (outcome.replaced?.written) written(client, outcome.replaced.file, 'import');
        return outcome;
      }),
    'clients.doctor': () => guarded(() => runDoctor(doctor)),
    'clients.fix': ({ fixId }) =>
      guarded(async () => {
        const outcome = await applyFix(fixId, doctor);
        const client = fixId.split(':')[1] ?? '';
        if (outcome.file) written(service.def(client).id, outcome.file, 'fix');
        return outcome;
      }),
  };
}
