#!/usr/bin/env node
// @ts-check
/**
 * A hand-written stdio MCP server for the relay's modern-era tests (no SDK: it starts fast and
 * reports what it saw). PROBE_ERA=modern (the default) serves revision 2026-07-28 only: every
 * request carries its `_meta` envelope, `server/discover` answers, `initialize` is refused with
 * the unsupported-version error. PROBE_ERA=legacy is a 2025-11-25 server: `initialize` first,
 * `server/discover` is an unknown method, no envelope.
 *
 * Tools:
 *   echo {text}          returns text
 *   wait {key}           answers only once `release {key}` has been called (by another request)
 *   release {key}        releases the waiters of key (and later ones), says how many it woke
 *   hang {tag}           never answers; a `notifications/cancelled` for it is recorded as tag
 *   hanging              the tags of the `hang` calls still waiting, as JSON text
 *   cancellations        the tags of the cancelled calls so far, as JSON text
 *   regional {region}    returns "region=<region>"; region carries `x-mcp-header: Region`
 *   ask_name             modern: `input_required` (an elicitation) until retried with the answer
 *   touch                sends notifications/tools/list_changed (modern: to each subscription
 *                        that asked for it, tagged with its id), says how many it sent
 * Also `subscriptions/listen` (modern): acknowledged, held open, never answered; a
 * `notifications/cancelled` for it is recorded as "listen".
 */
import process from 'node:process';

const era = process.env.PROBE_ERA === 'legacy' ? 'legacy' : 'modern';
const MODERN = '2026-07-28';
const PV = 'io.modelcontextprotocol/protocolVersion';
const SUB = 'io.modelcontextprotocol/subscriptionId';

/** @typedef {string | number} Id */
/** @typedef {{ jsonrpc: '2.0', id?: Id, method?: string, params?: Record<string, any>, result?: unknown, error?: unknown }} Message */

/** Waiting `wait` calls by key. @type {Map<string, Id[]>} */
const waiters = new Map();
/** Keys released so far. @type {Set<string>} */
const released = new Set();
/** Calls that never answer, by id: their tag. @type {Map<Id, string>} */
const hanging = new Map();
/** Open subscriptions (modern): request id → filter. @type {Map<Id, Record<string, unknown>>} */
const subscriptions = new Map();
/** Tags of cancelled calls, in order. @type {string[]} */
const cancelled = [];

/** @param {Message} message */
function send(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

/** @param {Id} id @param {Record<string, unknown>} result */
function answer(id, result) {
  send({ jsonrpc: '2.0', id, result: era === 'modern' ? { resultType: 'complete', ...result } : result });
}

/** @param {Id} id @param {number} code @param {string} message @param {unknown} [data] */
function fail(id, code, message, data) {
  send({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } });
}

/** @param {string} value */
function text(value) {
  return { content: [{ type: 'text', text: value }] };
}

const TOOLS = [
  { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  { name: 'wait', inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] } },
  { name: 'release', inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] } },
  { name: 'hang', inputSchema: { type: 'object', properties: { tag: { type: 'string' } } } },
  { name: 'hanging', inputSchema: { type: 'object', properties: {} } },
  { name: 'cancellations', inputSchema: { type: 'object', properties: {} } },
  { name: 'regional', inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } }, required: ['region'] } },
  { name: 'ask_name', inputSchema: { type: 'object', properties: {} } },
  { name: 'touch', inputSchema: { type: 'object', properties: {} } },
];

/** @param {Id} id @param {Record<string, any>} params */
function callTool(id, params) {
  const args = params.arguments ?? {};
  switch (params.name) {
    case 'echo':
      return answer(id, text(String(args.text ?? '')));
    case 'wait': {
      const key = String(args.key);
      if (released.has(key)) return answer(id, text(`released ${key}`));
      waiters.set(key, [...(waiters.get(key) ?? []), id]);
      return;
    }
    case 'release': {
      const key = String(args.key);
      released.add(key);
      const woken = waiters.get(key) ?? [];
      waiters.delete(key);
      for (const w of woken) answer(w, text(`released ${key}`));
      return answer(id, text(`woke ${woken.length}`));
    }
    case 'hang':
      hanging.set(id, String(args.tag ?? 'hang'));
      return;
    case 'hanging':
      return answer(id, text(JSON.stringify([...hanging.values()])));
    case 'cancellations':
      return answer(id, text(JSON.stringify(cancelled)));
    case 'regional':
      return answer(id, text(`region=${args.region}`));
    case 'ask_name': {
      const response = params.inputResponses?.name;
      if (response?.action === 'accept' && typeof response.content?.name === 'string') return answer(id, text(`Hello, ${response.content.name}!`));
      return answer(id, {
        resultType: 'input_required',
        inputRequests: {
          name: {
            method: 'elicitation/create',
            params: { mode: 'form', message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
          },
        },
      });
    }
    case 'touch': {
      let sent = 0;
      if (era === 'legacy') {
        send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
        sent = 1;
      } else {
        for (const [sub, filter] of subscriptions) {
          if (filter.toolsListChanged !== true) continue;
          send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [SUB]: sub } } });
          sent++;
        }
      }
      return answer(id, text(`touched ${sent}`));
    }
    default:
      return fail(id, -32602, `Unknown tool: ${params.name}`);
  }
}

/** @param {Message} message */
function handle(message) {
  const { id, method } = message;
  const params = message.params ?? {};
  if (method === undefined) return; // a response: this server asks nothing
  if (method === 'notifications/cancelled') {
    const target = params.requestId;
    if (hanging.has(target)) {
      cancelled.push(/** @type {string} */ (hanging.get(target)));
      hanging.delete(target);
    } else if (subscriptions.has(target)) {
      subscriptions.delete(target);
      cancelled.push('listen');
    }
    return;
  }
  if (id === undefined) return;
  if (era === 'modern') {
    const version = params._meta?.[PV];
    if (method === 'initialize' || version === undefined) {
      return fail(id, -32022, 'Unsupported protocol version', { supported: [MODERN], requested: method === 'initialize' ? params.protocolVersion : null });
    }
    if (version !== MODERN) return fail(id, -32022, `Unsupported protocol version: ${version}`, { supported: [MODERN], requested: version });
  }
  switch (method) {
    case 'initialize':
      return answer(id, { protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'modern-probe', version: '1.0.0' } });
    case 'server/discover':
      if (era === 'legacy') return fail(id, -32601, 'Method not found: server/discover');
      return answer(id, { supportedVersions: [MODERN], capabilities: { tools: { listChanged: true } }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'modern-probe', version: '1.0.0' } } });
    case 'ping':
      return answer(id, {});
    case 'tools/list':
      return answer(id, { tools: TOOLS });
    case 'tools/call':
      return callTool(id, params);
    case 'subscriptions/listen': {
      if (era === 'legacy') return fail(id, -32601, 'Method not found: subscriptions/listen');
      const wanted = params.notifications ?? {};
      const honored = wanted.toolsListChanged === true ? { toolsListChanged: true } : {};
      subscriptions.set(id, honored);
      send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: { [SUB]: id }, notifications: honored } });
      return;
    }
    default:
      return fail(id, -32601, `Method not found: ${method}`);
  }
}

let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf('\n')) !== -1) {
    const line = buffer.slice(0, nl).trim();
    buffer = buffer.slice(nl + 1);
    if (line === '') continue;
    try {
      handle(JSON.parse(line));
    } catch (err) {
      process.stderr.write(`[modern-probe] bad line: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
});
process.stdin.on('end', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
