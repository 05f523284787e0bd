/**
 * The relay's HTTP calls, on `node:http` with a keep-alive agent: it is already loaded (fetch
 * would load undici on first use, which costs the relay's cold start), and it lets the relay tell
 * "the hub is not there" (refused before anything was sent) from other failures.
 */
import http, { type IncomingMessage } from 'node:http';

export interface HttpCall {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Give up waiting for the response headers after this long. */
  timeoutMs?: number;
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

// The relay only ever talks to a Patchbay hub on loopback (its own embedded one for `--url`).
const agent = new http.Agent({ keepAlive: true });

/** Sends one request and resolves with the response once its headers are in. */
export function httpCall(call: HttpCall): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const url = new URL(call.url);
    const headers: Record<string, string> = { ...call.headers };
    if (call.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(call.body));
    const req = http.request(url, {
      method: call.method,
      headers,
      agent,
      ...(call.signal ? { signal: call.signal } : {}),
    });
    let timer: NodeJS.Timeout | undefined;
    if (call.timeoutMs !== undefined) {
      timer = setTimeout(() => req.destroy(new HttpCallError(`no answer from ${url.origin} within ${call.timeoutMs} ms`, 'ETIMEDOUT', false)), call.timeoutMs);
    }
    req.once('response', (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    req.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (err instanceof HttpCallError) return reject(err);
      const code = err.code ?? (err.name === 'AbortError' ? 'ABORT_ERR' : 'EUNKNOWN');
      reject(new HttpCallError(`${call.method} ${url.origin}${url.pathname} failed: ${err.message}`, code, UNREACHABLE.has(code)));
    });
    req.end(call.body);
  });
}

/** Reads a whole (small) response body as text, up to `maxBytes`. */
export function readText(res: IncomingMessage, maxBytes = 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    res.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.once('error', reject);
    res.once('aborted', () => reject(new Error('the response was cut off')));
  });
}

/** Drops a response body we do not need, so the socket goes back to the pool. */
export function discard(res: IncomingMessage): void {
  res.resume();
}

export function headerValue(res: IncomingMessage, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Stop holding idle keep-alive sockets open (so the process can exit). */
export function closeIdleSockets(): void {
  agent.destroy();
}
