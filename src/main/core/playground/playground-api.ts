/** The playground's API handlers (src/shared/api/playground-contract.ts). */
import { playgroundContract } from '../../../shared/api/playground-contract.js';
import type { ApiRegistry, Handlers } from '../api/api-registry.js';
import { PlaygroundService, type PlaygroundDeps } from './playground-service.js';

export function playgroundHandlers(service: PlaygroundService): Handlers<typeof playgroundContract> {
  return {
    'playground.open': ({ server }) => service.open(server),
    'playground.request': ({ session, method, params, id, timeoutMs, origin }) => service.get(session).request(method, params, timeoutMs, id, origin),
    'playground.notify': async ({ session, method, params }) => {
      await service.get(session).notify(method, params);
      return {};
    },
    'playground.answer': async ({ session, id, result, error }) => {
      await service.get(session).answer(id, result, error);
      return {};
    },
    'playground.close': async ({ session }) => ({ closed: await service.close(session, 'closed by the person') }),
  };
}

/** The handlers with their service, its events emitted through the registry (engine/register-api.ts). */
export function playgroundApi(api: ApiRegistry, deps: Omit<PlaygroundDeps, 'serverMessage' | 'closed'>): Handlers<typeof playgroundContract> {
  const service = new PlaygroundService({
    ...deps,
    serverMessage: (payload) => api.emit(playgroundContract, 'playground.serverMessage', payload),
    closed: (payload) => api.emit(playgroundContract, 'playground.closed', payload),
  });
  return playgroundHandlers(service);
}
