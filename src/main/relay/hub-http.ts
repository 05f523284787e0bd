/**
 * The relay's HTTP calls to the hub: HTTP/1.1 written straight onto kept-alive `node:net`
 * sockets, each request one write, each response read off the socket as raw bytes
 * (hub-response.ts). The relay only ever talks to a Patchbay hub on loopback (its own embedded
 * one for `--url`), so this is all the HTTP it needs; `node:http`'s client (agent, request and
 * response streams, header validation, events) was about half of the relay's CPU per message
 * (docs/relay.md, "Where the time went"). It also tells "the hub is not there" (refused, or
 * closed before answering) from other failures.
 */
import net, { type Socket } from 'node:net';
import { RELAY_USER_AGENT } from '../../shared/protocol.js';
import { HubResponse, ResponseParser } from './hub-response.js';

export type { HubResponse } from './hub-response.js';

export interface HttpCall {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Give up waiting for the response headers after this long. */
  timeoutMs?: number;
  /** Called once the request is written to the socket (before any answer). */
  onWritten?: () => void;
}

/** A failure before any response arrived. `unreachable`: nothing listens there (or it went away). */
export class HttpCallError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly unreachable: boolean,
  ) {
    super(message);
    this.name = 'HttpCallError';
  }
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ECONNABORTED']);
/** Bodies up to this size go out in the same write as the head. */
const ONE_WRITE_BYTES = 64 * 1024;

interface Target {
  host: string;
  port: number;
  /** `host:port`: the pool's key and the Host header. */
  authority: string;
  path: string;
  origin: string;
}

const targets = new Map<string, Target>();
/** Kept-alive sockets waiting for their next request, by authority; each with its watcher's undo. */
const idle = new Map<string, Array<{ socket: Socket; unwatch: () => void }>>();
const busy = new Set<Socket>();

function targetOf(url: string): Target {
  let target = targets.get(url);
  if (target) return target;
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:') throw new HttpCallError(`the relay speaks plain HTTP to a hub on loopback, not ${parsed.protocol}`, 'EPROTO', false);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = parsed.port === '' ? 80 : Number(parsed.port);
  target = { host, port, authority: parsed.host, path: `${parsed.pathname}${parsed.search}`, origin: parsed.origin };
  if (targets.size > 64) targets.clear();
  targets.set(url, target);
  return target;
}

/** Sends one request and resolves with the response once its headers are in. */
export function httpCall(call: HttpCall): Promise<HubResponse> {
  let target: Target;
  let head: string;
  try {
    target = targetOf(call.url);
    head = requestHead(call, target);
  } catch (err) {
    return Promise.reject(err instanceof HttpCallError ? err : new HttpCallError((err as Error).message, 'EINVAL', false));
  }
  return attempt(call, target, head, true);
}

function requestHead(call: HttpCall, target: Target): string {
  // The User-Agent tells the hub a session came through the relay (its audit trail says `relay`).
  let head = `${call.method} ${target.path} HTTP/1.1\r\nHost: ${target.authority}\r\nUser-Agent: ${RELAY_USER_AGENT}\r\n`;
  for (const name in call.headers) {
    const value = call.headers[name]!;
    // Values come from the hub (a session id), the token file, or a client's modern line (already
    // encoded when not header-safe): a line break would end the head early, so none gets through.
    if (/[\r\n]/.test(value) || /[\r\n:]/.test(name)) throw new HttpCallError(`the header ${JSON.stringify(name)} cannot be sent: it has a line break`, 'EINVAL', false);
    head += `${name}: ${value}\r\n`;
  }
  if (call.body !== undefined) head += `Content-Length: ${Buffer.byteLength(call.body)}\r\n`;
  return head + '\r\n';
}

function attempt(call: HttpCall, target: Target, head: string, mayRetry: boolean): Promise<HubResponse> {
  return new Promise((resolve, reject) => {
    const what = `${call.method} ${target.origin}${target.path}`;
    if (call.signal?.aborted) return reject(new HttpCallError(`${what} failed: the operation was aborted`, 'ABORT_ERR', false));
    const pooled = takeIdle(target.authority);
    const socket = pooled ?? net.connect({ host: target.host, port: target.port, noDelay: true });
    busy.add(socket);
    let response: HubResponse | undefined;
    let received = false;
    let written = false;
    let keepAlive = false;
    let over = false;
    let timer: NodeJS.Timeout | undefined;

    const detach = (): void => {
      over = true;
      clearTimeout(timer);
      busy.delete(socket);
      socket.off('data', onData);
      socket.off('end', onGone);
      socket.off('close', onGone);
      socket.off('error', onError);
      call.signal?.removeEventListener('abort', onAbort);
    };
    /** Before the response: retry once on a fresh socket when a pooled one was closed under us. */
    const failEarly = (err: HttpCallError): void => {
      detach();
      socket.destroy();
      if (pooled && !received && mayRetry && err.unreachable) resolve(attempt(call, target, head, false));
      else reject(err);
    };
    const parser = new ResponseParser(call.method, {
      head: (h) => {
        clearTimeout(timer);
        keepAlive = h.keepAlive;
        response = new HubResponse(h.statusCode, h.headers, socket);
        resolve(response);
      },
      body: (chunk) => response!.push(chunk),
      done: () => {
        const res = response!;
        detach();
        // Back to the pool only when nothing of this exchange is left on the wire either way.
        if (keepAlive && written && !parser.leftover && !socket.destroyed) park(target.authority, socket);
        else socket.destroy();
        res.finish(true);
      },
    });
    function onData(chunk: Buffer): void {
      received = true;
      try {
        parser.push(chunk);
      } catch (err) {
        const message = `${what}: the hub's answer is not valid HTTP: ${(err as Error).message}`;
        if (response) {
          detach();
          socket.destroy();
          response.finish(false);
        } else failEarly(new HttpCallError(message, 'EPROTO', false));
      }
    }
    function onGone(): void {
      if (over) return;
      if (response) {
        const complete = parser.end();
        detach();
        socket.destroy();
        response.finish(complete);
        return;
      }
      failEarly(new HttpCallError(`${what} failed: the connection closed before an answer`, 'ECONNRESET', true));
    }
    function onError(err: NodeJS.ErrnoException): void {
      if (over) return;
      if (response) return onGone();
      const code = err.code ?? 'EUNKNOWN';
      failEarly(new HttpCallError(`${what} failed: ${err.message}`, code, UNREACHABLE.has(code)));
    }
    function onAbort(): void {
      if (over) return;
      if (response) {
        detach();
        response.destroy();
        return;
      }
      detach();
      socket.destroy();
      reject(new HttpCallError(`${what} failed: the operation was aborted`, 'ABORT_ERR', false));
    }

    socket.on('data', onData);
    socket.on('end', onGone);
    socket.on('close', onGone);
    socket.on('error', onError);
    call.signal?.addEventListener('abort', onAbort, { once: true });
    if (call.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        if (over || response) return;
        detach();
        socket.destroy();
        reject(new HttpCallError(`no answer from ${target.origin} within ${call.timeoutMs} ms`, 'ETIMEDOUT', false));
      }, call.timeoutMs);
    }
    const body = call.body;
    const done = (err?: Error | null): void => {
      if (err) return;
      written = true;
      call.onWritten?.();
    };
    if (body === undefined || body.length === 0) socket.write(head, done);
    else if (body.length <= ONE_WRITE_BYTES) socket.write(head + body, done);
    else {
      socket.write(head);
      socket.write(body, done);
    }
  });
}

function takeIdle(authority: string): Socket | undefined {
  const list = idle.get(authority);
  const entry = list?.pop();
  if (!entry) return undefined;
  entry.unwatch();
  entry.socket.ref();
  return entry.socket;
}

/** Keeps a socket for the next request; one the hub closes (or writes to) meanwhile is dropped. */
function park(authority: string, socket: Socket): void {
  let list = idle.get(authority);
  if (!list) idle.set(authority, (list = []));
  const drop = (): void => {
    const at = list.indexOf(entry);
    if (at !== -1) list.splice(at, 1);
    unwatch();
    socket.destroy();
  };
  const unwatch = (): void => {
    socket.off('data', drop);
    socket.off('end', drop);
    socket.off('close', drop);
    socket.off('error', drop);
  };
  const entry = { socket, unwatch };
  socket.on('data', drop);
  socket.on('end', drop);
  socket.on('close', drop);
  socket.on('error', drop);
  // An idle connection does not keep the process alive (as node:http's agent does it).
  socket.unref();
  socket.resume();
  list.push(entry);
}

/** Reads a whole (small) response body as text, up to `maxBytes`. Rejects when it is cut off. */
export function readText(res: HubResponse, maxBytes = 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.read({
      data: (chunk) => {
        size += chunk.length;
        if (size <= maxBytes) chunks.push(chunk);
      },
      end: (complete) => (complete ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error('the response was cut off'))),
    });
  });
}

/** Drops a response body we do not need; the socket goes back to the pool once it is read. */
export function discard(res: HubResponse): void {
  res.read({ data: () => undefined, end: () => undefined });
}

export function headerValue(res: HubResponse, name: string): string | undefined {
  return res.headers[name];
}

/** Closes every connection to the hub (so the process can exit). */
export function closeIdleSockets(): void {
  for (const list of idle.values()) for (const { socket, unwatch } of list.splice(0)) {
    unwatch();
    socket.destroy();
  }
  for (const socket of busy) socket.destroy();
  busy.clear();
}
