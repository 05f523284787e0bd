/**
 * What the relay needs to know of a JSON-RPC message — its kind, its id, its method — read off
 * the text without parsing it: the top-level members are walked, and every other value (params,
 * result: most of the bytes) is skipped over, strings with `indexOf`. A 50 MB answer costs a scan
 * and no object graph; a small one costs less than `JSON.parse`. The message itself goes on as
 * the text it came as.
 */
import type { JsonRpcId } from '../core/index.js';

export type ScannedKind = 'request' | 'notification' | 'response';

export interface ScannedMessage {
  kind: ScannedKind;
  /** The id of a request or a response (a response to an unparseable request may carry null). */
  id?: JsonRpcId | null;
  method?: string;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

const SCALAR = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/;

/**
 * The message's kind, id and method, by the rules of `classify` (core/protocol/json-rpc.ts) at
 * the top level, or undefined when the text is not one JSON-RPC 2.0 message object (a batch, an
 * object that is not JSON-RPC, or text that breaks off).
 */
export function scanMessage(text: string): ScannedMessage | undefined {
  let i = skipWs(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) return undefined;
  i = skipWs(text, i + 1);
  let jsonrpc = false;
  let method: string | undefined;
  let id: JsonRpcId | null | undefined;
  let hasId = false;
  let idValid = false;
  let paramsOk = true;
  let hasResult = false;
  let hasError = false;
  if (text.charCodeAt(i) === CLOSE_BRACE) return undefined;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return undefined;
    const key = stringAt(text, i, keyEnd);
    if (key === undefined) return undefined;
    i = skipWs(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return undefined;
    i = skipWs(text, i + 1);
    const start = i;
    const end = skipValue(text, i);
    if (end < 0) return undefined;
    const first = text.charCodeAt(start);
    switch (key) {
      case 'jsonrpc':
        jsonrpc = text.slice(start, end) === '"2.0"';
        break;
      case 'method':
        method = first === QUOTE ? stringAt(text, start, end) : undefined;
        break;
      case 'id': {
        hasId = true;
        const raw = text.slice(start, end);
        if (first === QUOTE) {
          const s = stringAt(text, start, end);
          idValid = s !== undefined;
          id = s;
        } else if (raw === 'null') {
          id = null;
          idValid = false;
        } else {
          const n = Number(raw);
          idValid = raw !== 'true' && raw !== 'false' && Number.isFinite(n) && first !== OPEN_BRACE && first !== OPEN_BRACKET;
          id = idValid ? n : undefined;
        }
        break;
      }
      case 'params':
        paramsOk = first === OPEN_BRACE || first === OPEN_BRACKET;
        break;
      case 'result':
        hasResult = true;
        break;
      case 'error':
        hasError = first === OPEN_BRACE;
        break;
    }
    i = skipWs(text, end);
    const sep = text.charCodeAt(i);
    if (sep === CLOSE_BRACE) {
      if (skipWs(text, i + 1) !== text.length) return undefined;
      break;
    }
    if (sep !== COMMA) return undefined;
    i = skipWs(text, i + 1);
  }
  if (!jsonrpc) return undefined;
  if (method !== undefined) {
    if (!paramsOk) return undefined;
    if (hasId) return idValid ? { kind: 'request', id: id!, method } : undefined;
    return { kind: 'notification', method };
  }
  if (hasId && (idValid || id === null) && hasResult !== hasError) return { kind: 'response', id: id ?? null };
  return undefined;
}

/** The parsed message, for the few the relay reads (initialize's and tools/list's answers); undefined when it is not JSON. */
export function parseMessage(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The id of a response, or undefined for anything else. */
export function scannedResponseId(m: ScannedMessage | undefined): JsonRpcId | undefined {
  return m?.kind === 'response' && m.id !== null ? m.id : undefined;
}

function skipWs(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return i;
    i++;
  }
}

/** From an opening quote to just past its closing quote; -1 when the string does not end. */
function skipString(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return -1;
    let slashes = 0;
    for (let k = q - 1; k > open && text.charCodeAt(k) === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** The string value between `open` and `end` (a quoted JSON string), unescaped only when needed. */
function stringAt(text: string, open: number, end: number): string | undefined {
  const inner = text.slice(open + 1, end - 1);
  if (!inner.includes('\\')) return inner;
  try {
    return JSON.parse(text.slice(open, end)) as string;
  } catch {
    return undefined;
  }
}

/** Just past the value starting at `i`; -1 when it is not one. */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return skipString(text, i);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    const n = text.length;
    while (i < n) {
      const d = text.charCodeAt(i);
      if (d === QUOTE) {
        i = skipString(text, i);
        if (i < 0) return -1;
        continue;
      }
      if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return -1;
  }
  let j = i;
  for (;;) {
    const d = text.charCodeAt(j);
    if (Number.isNaN(d) || d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d === 32 || d === 10 || d === 13 || d === 9) break;
    j++;
  }
  return j > i && SCALAR.test(text.slice(i, j)) ? j : -1;
}
