/**
 * What a legacy aggregate does with a message a member sends that is not the answer to one of the
 * aggregate's own requests: the answer to a client's request goes to the client as it is (ids are
 * the client's own), unless it came after the member's deadline; a member's request to the client
 * (sampling, elicitation, roots) gets an id unique across members; a ping is answered here; list
 * changes rebuild the merged list (the client hears of it only when the list it has differs); a
 * member's cancellation names the id the client knows; progress moves the member's deadline.
 */
import { isRequest, type JsonRpcId, type JsonRpcMessage } from '../protocol/json-rpc.js';
import type { HubAnswer } from '../upstream/upstream.js';
import type { ForwardedRequests } from './forwarded-requests.js';
import type { MemberLink } from './member-link.js';
import { OWN_NOTE } from './member-watch.js';
import type { ListKind } from './server-catalog.js';
import type { ServerRequests } from './server-requests.js';

export interface InboundTarget {
  readonly forwarded: ForwardedRequests;
  readonly serverRequests: ServerRequests;
  /** To the client's session; `raw` is the JSON text, the message is parsed from it when not given. */
  deliver(raw: string, local: boolean | HubAnswer, message?: JsonRpcMessage): void;
  /** A member says its list of these kinds changed. */
  memberChanged(link: MemberLink, kinds: ListKind[]): void;
}

export function fromMember(target: InboundTarget, link: MemberLink, message: JsonRpcMessage, raw: string, local: boolean | HubAnswer): void {
  if (!('method' in message)) {
    // The answer to a forwarded client request: ids are the client's own.
    if (target.forwarded.answered(message.id)) target.deliver(raw, local, message);
    return;
  }
  if (isRequest(message)) {
    if (message.method === 'ping') {
      link.send({ jsonrpc: '2.0', id: message.id, result: {} }, undefined, OWN_NOTE);
      return;
    }
    target.deliver(JSON.stringify({ ...message, id: target.serverRequests.rename(link, message.id) }), false);
    return;
  }
  switch (message.method) {
    case 'notifications/tools/list_changed':
      return target.memberChanged(link, ['tools']);
    case 'notifications/prompts/list_changed':
      return target.memberChanged(link, ['prompts']);
    case 'notifications/resources/list_changed':
      return target.memberChanged(link, ['resources', 'templates']);
    case 'notifications/cancelled': {
      // The member gave up on a request it sent the client: name it by the id the client knows.
      const requestId = target.serverRequests.cancelled(link, (message.params as { requestId?: JsonRpcId } | undefined)?.requestId);
      if (requestId !== undefined) target.deliver(JSON.stringify({ ...message, params: { ...message.params, requestId } }), false);
      return;
    }
    case 'notifications/progress':
      target.forwarded.progress((message.params as { progressToken?: unknown } | undefined)?.progressToken);
      return target.deliver(raw, false, message);
    default:
      // Logging and resource updates carry the client's own URIs.
      target.deliver(raw, false, message);
  }
}
