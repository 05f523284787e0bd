/**
 * `subscriptions/listen` from a modern client, served by a legacy session (2026-07-28
 * basic/patterns/subscriptions; PROTOCOL Q8): the hub acknowledges the part of the filter the
 * server can honour (its `listChanged` and `subscribe` capabilities), subscribes upstream to the
 * resources asked for (`resources/subscribe`), and passes on the session's unsolicited
 * notifications that match, tagged with the subscription id. Closing the stream unsubscribes.
 */
import { META } from '../../../shared/protocol.js';
import type { JsonRpcNotification, JsonRpcRequest } from '../protocol/json-rpc.js';
import type { ModernCall, ModernCallHandlers } from '../upstream/modern-upstream.js';
import type { BridgeSession } from './legacy-bridge.js';

type Obj = Record<string, unknown>;

interface Filter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

const SUBSCRIBE_TIMEOUT_MS = 10_000;

/** The part of `asked` the server can honour, given its initialize capabilities. */
export function honoredFilter(asked: Filter, capabilities: Obj): Filter {
  const cap = (name: string): Obj => (typeof capabilities[name] === 'object' && capabilities[name] !== null ? (capabilities[name] as Obj) : {});
  const out: Filter = {};
  if (asked.toolsListChanged && cap('tools').listChanged === true) out.toolsListChanged = true;
  if (asked.promptsListChanged && cap('prompts').listChanged === true) out.promptsListChanged = true;
  if (asked.resourcesListChanged && cap('resources').listChanged === true) out.resourcesListChanged = true;
  if (Array.isArray(asked.resourceSubscriptions) && asked.resourceSubscriptions.length > 0 && cap('resources').subscribe === true) {
    out.resourceSubscriptions = asked.resourceSubscriptions.filter((u): u is string => typeof u === 'string');
  }
  return out;
}

function matches(filter: Filter, message: JsonRpcNotification): boolean {
  switch (message.method) {
    case 'notifications/tools/list_changed':
      return filter.toolsListChanged === true;
    case 'notifications/prompts/list_changed':
      return filter.promptsListChanged === true;
    case 'notifications/resources/list_changed':
      return filter.resourcesListChanged === true;
    case 'notifications/resources/updated':
      return (filter.resourceSubscriptions ?? []).includes((message.params as { uri?: string } | undefined)?.uri ?? '');
    default:
      return false;
  }
}

export function listenThroughBridge(bs: BridgeSession, request: JsonRpcRequest, handlers: ModernCallHandlers): ModernCall {
  const asked = ((request.params as { notifications?: Filter } | undefined)?.notifications ?? {}) as Filter;
  const filter = honoredFilter(asked, (bs.init.capabilities ?? {}) as Obj);
  const tag = (message: JsonRpcNotification): JsonRpcNotification => {
    const params = (message.params ?? {}) as Obj;
    return { ...message, params: { ...params, _meta: { ...((params._meta as Obj | undefined) ?? {}), [META.subscriptionId]: request.id } } };
  };
  const ack = tag({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: filter } });
  handlers.notification(ack, JSON.stringify(ack));
  const listener = (message: JsonRpcNotification): void => {
    if (!matches(filter, message)) return;
    const tagged = tag(message);
    handlers.notification(tagged, JSON.stringify(tagged));
  };
  bs.listeners.add(listener);
  for (const uri of filter.resourceSubscriptions ?? []) {
    void bs.session.request({ jsonrpc: '2.0', id: `patchbay-subscribe-${request.id}-${uri}`, method: 'resources/subscribe', params: { uri } }, SUBSCRIBE_TIMEOUT_MS).catch(() => undefined);
  }
  bs.lastUsed = Date.now();
  return {
    cancel: () => {
      if (!bs.listeners.delete(listener)) return;
      for (const uri of filter.resourceSubscriptions ?? []) {
        void bs.session.request({ jsonrpc: '2.0', id: `patchbay-unsubscribe-${request.id}-${uri}`, method: 'resources/unsubscribe', params: { uri } }, SUBSCRIBE_TIMEOUT_MS).catch(() => undefined);
      }
    },
  };
}
