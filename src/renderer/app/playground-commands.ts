/**
 * The playground's commands: open a session on a server (and list what it offers), send
 * requests with an id the UI chooses (so its progress and the server's questions can be tied to
 * it while it runs), answer the server's requests, subscribe to resources, complete arguments.
 */
import type { PlaygroundOutcome } from '../../shared/api/playground-contract.js';
import { historyEntry } from '../stores/playground-history.js';
import type { Catalog, PromptDef, ResourceDef, TemplateDef, ToolDef } from '../stores/playground-store.js';
import type { Services } from './services.js';

let nextCall = 1;

/** Opens (or reuses) the playground session of a server and loads its tools, resources and prompts. */
export async function openPlayground(services: Services, server: string, force = false): Promise<void> {
  const store = services.stores.playground;
  const current = store.getState().byServer[server];
  if (!force && current && (current.state === 'open' || current.state === 'opening')) return;
  store.getState().playgroundOpening(server);
  const r = await services.bridge.call('playground.open', { server });
  if (!r.ok) {
    store.getState().playgroundFailed(server, r.message);
    return;
  }
  store.getState().playgroundOpened(server, r.value);
  await refreshCatalog(services, server);
}

/** Lists what the server offers (each list as its capabilities say it has one). */
export async function refreshCatalog(services: Services, server: string, only?: keyof Omit<Catalog, 'errors'>): Promise<void> {
  const p = services.stores.playground.getState().byServer[server];
  const caps = p?.opened?.capabilities ?? {};
  const wanted = (part: keyof Omit<Catalog, 'errors'>): boolean => only === undefined || only === part;
  const list = async <T,>(part: keyof Omit<Catalog, 'errors'>, method: string, key: string): Promise<void> => {
    const outcome = await request(services, server, method, {}, { record: false });
    if (outcome.status === 'ok') services.stores.playground.getState().catalogLoaded(server, { [part]: ((outcome.result as Record<string, unknown> | undefined)?.[key] ?? []) as T[], errors: { [part]: undefined } });
    else services.stores.playground.getState().catalogLoaded(server, { [part]: [], errors: { [part]: outcome.error?.message ?? outcome.status } });
  };
  const jobs: Array<Promise<void>> = [];
  if ('tools' in caps && wanted('tools')) jobs.push(list<ToolDef>('tools', 'tools/list', 'tools'));
  if ('resources' in caps && wanted('resources')) jobs.push(list<ResourceDef>('resources', 'resources/list', 'resources'));
  if ('resources' in caps && wanted('templates')) jobs.push(list<TemplateDef>('templates', 'resources/templates/list', 'resourceTemplates'));
  if ('prompts' in caps && wanted('prompts')) jobs.push(list<PromptDef>('prompts', 'prompts/list', 'prompts'));
  await Promise.all(jobs);
  for (const part of ['tools', 'resources', 'templates', 'prompts'] as const) {
    const has = part === 'templates' ? 'resources' in caps : part in caps;
    if (!has && wanted(part)) services.stores.playground.getState().catalogLoaded(server, { [part]: [] });
  }
}

/**
 * Sends one request on the server's playground session; `id` is known at once, so the view can
 * show the call running (elapsed time, progress) before it is answered. `record`: keep it as a
 * call the UI shows; listings and completions are not recorded.
 */
export function startRequest(services: Services, server: string, method: string, params: Record<string, unknown>, options: { record?: boolean; target?: string; origin?: 'app' } = {}): { id: string; done: Promise<PlaygroundOutcome> } {
  const store = services.stores.playground;
  const session = store.getState().byServer[server]?.opened?.session;
  const id = `ui-${nextCall++}`;
  if (!session) return { id, done: Promise.resolve({ id, status: 'closed', latencyMs: 0, error: { code: -32000, message: 'The playground is not connected' } }) };
  const record = options.record !== false;
  const startedAt = Date.now();
  if (record) store.getState().callStarted(server, { id, method, target: options.target, startedAt, status: 'running' });
  const done = (async (): Promise<PlaygroundOutcome> => {
    const r = await services.bridge.call('playground.request', { session, method, params, id, ...(options.origin ? { origin: options.origin } : {}) });
    const outcome: PlaygroundOutcome = r.ok ? r.value : { id, status: 'error', latencyMs: 0, error: { code: -32000, message: r.message } };
    if (record) store.getState().callFinished(server, id, outcome);
    // Tool calls the person made go into the playground's history (re-run, edit, compare).
    if (record && method === 'tools/call' && typeof params.name === 'string') {
      store.getState().historyRecorded(server, historyEntry(params.name, (params.arguments ?? {}) as Record<string, unknown>, startedAt, outcome));
    }
    // The session ended under us (idle, or its server failed): say so, so the view offers a reconnect.
    if (!r.ok && r.code === 'playground_not_found') store.getState().playgroundClosed(session, r.message);
    return outcome;
  })();
  return { id, done };
}

export function request(services: Services, server: string, method: string, params: Record<string, unknown>, options: { record?: boolean; target?: string; origin?: 'app' } = {}): Promise<PlaygroundOutcome> {
  return startRequest(services, server, method, params, options).done;
}

/** Asks the server to stop a running call (notifications/cancelled). */
export async function cancelCall(services: Services, server: string, id: string): Promise<void> {
  const session = services.stores.playground.getState().byServer[server]?.opened?.session;
  if (session) await services.bridge.call('playground.notify', { session, method: 'notifications/cancelled', params: { requestId: id, reason: 'cancelled in the playground' } });
}

/** Answers a request the server made (elicitation, sampling, roots). */
export async function answerAsk(services: Services, server: string, id: string | number, answer: { result: Record<string, unknown> } | { error: { code: number; message: string } }): Promise<string | undefined> {
  const session = services.stores.playground.getState().byServer[server]?.opened?.session;
  if (!session) return 'The playground is not connected';
  const r = await services.bridge.call('playground.answer', { session, id, ...answer });
  services.stores.playground.getState().askAnswered(server, id);
  return r.ok ? undefined : r.message;
}

export async function setSubscribed(services: Services, server: string, uri: string, subscribed: boolean): Promise<string | undefined> {
  const outcome = await request(services, server, subscribed ? 'resources/subscribe' : 'resources/unsubscribe', { uri }, { record: false });
  if (outcome.status !== 'ok') return outcome.error?.message ?? outcome.status;
  services.stores.playground.getState().subscriptionChanged(server, uri, subscribed);
  return undefined;
}

/** Completion values for an argument as typed so far (completion/complete), or none. */
export async function completeArgument(services: Services, server: string, ref: Record<string, unknown>, name: string, value: string, context: Record<string, string>): Promise<string[]> {
  const caps = services.stores.playground.getState().byServer[server]?.opened?.capabilities ?? {};
  if (!('completions' in caps)) return [];
  const outcome = await request(services, server, 'completion/complete', { ref, argument: { name, value }, ...(Object.keys(context).length ? { context: { arguments: context } } : {}) }, { record: false });
  const values = (outcome.result as { completion?: { values?: unknown } } | undefined)?.completion?.values;
  return outcome.status === 'ok' && Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string') : [];
}

export async function closePlayground(services: Services, server: string): Promise<void> {
  const session = services.stores.playground.getState().byServer[server]?.opened?.session;
  if (session) await services.bridge.call('playground.close', { session });
}
