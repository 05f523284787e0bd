/**
 * One request to a remote server on an undici dispatcher, by its dispatch API with a handler of
 * our own: what the hub's POSTs to remote servers use (remote-post.ts), on every call of a remote
 * upstream. undici's `request()` builds, per response, a header object (every name and value
 * decoded) and a Node Readable for the body, read through an async iterator; a profile of the hub
 * relaying to a remote put those near a tenth of its CPU per call. Here the raw header list is
 * kept as it arrives and a header decoded when asked for (a POST reads two or three), and body
 * chunks go straight to whoever reads them — to a callback as they arrive, or joined for `text()`.
 *
 * The dispatcher's rules stay its own: keep-alive pooling, the proxy (EnvHttpProxyAgent), the body
 * timeout. Redirects are not followed (the caller decides, as with `request()`).
 *
 * The handler is undici's classic one (`onConnect`, `onHeaders`, `onData`, `onComplete`,
 * `onError`): the newer controller-style handler is given headers parsed into an object first,
 * which is the cost this file exists to avoid. undici 7 takes both.
 */
import type { Dispatcher } from 'undici';

export interface RemoteRequestInit {
  method: string;
  headers: Record<string, string>;
  body: string;
  signal?: AbortSignal;
}

/** A response whose headers are read on demand and whose body is read once, one way or the other. */
export interface RemoteResponse {
  readonly statusCode: number;
  /** A header by its lower-case name; repeated ones joined with `, ` (as fetch's Headers does). */
  header(name: string): string | undefined;
  /** Every header, lower-case names, repeated ones in arrays (for the inspector's exchange record). */
  headers(): Record<string, string | string[]>;
  /** The whole body as UTF-8 text. */
  text(): Promise<string>;
  /** Hands every body chunk to `onChunk` as it arrives; settles at the body's end (rejects on an error or abort). */
  read(onChunk: (chunk: Buffer) => void): Promise<void>;
  /** Reads no more of it: the rest is dropped (the connection goes back to the pool when it can). */
  dump(): Promise<void>;
  /** Cuts a body still arriving, with its connection (a reader then sees an abort); nothing once it ended. */
  cancel(): void;
}

export type RemoteRequest = (url: URL, init: RemoteRequestInit) => Promise<RemoteResponse>;

/** Requests on `dispatcher` (an Agent or an EnvHttpProxyAgent of this package's undici). */
export function dispatchRequest(dispatcher: Dispatcher): RemoteRequest {
  return (url, init) =>
    new Promise<RemoteResponse>((resolve, reject) => {
      const handler = new ResponseHandler(init.signal, resolve, reject);
      if (init.signal?.aborted) {
        reject(abortError(init.signal));
        return;
      }
      dispatcher.dispatch({ origin: url.origin, path: url.pathname + url.search, method: init.method as Dispatcher.HttpMethod, headers: init.headers, body: init.body }, handler as unknown as Dispatcher.DispatchHandler);
    });
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}

/** Most bytes `dump()` reads to keep a connection (undici's `body.dump()` limit). */
const DUMP_LIMIT = 128 * 1024;

type BodyState = { kind: 'open' } | { kind: 'ended' } | { kind: 'failed'; error: Error };

class ResponseHandler implements RemoteResponse {
  statusCode = 0;
  private raw: Buffer[] = [];
  private parsed: Record<string, string | string[]> | undefined;
  private abortRequest: ((err: Error) => void) | undefined;
  private started = false;
  /** Chunks that came before anyone read the body (the first event often comes with the headers). */
  private early: Buffer[] | undefined = [];
  private consumer: ((chunk: Buffer) => void) | undefined;
  private state: BodyState = { kind: 'open' };
  private settle: { resolve: () => void; reject: (err: Error) => void } | undefined;
  private readonly onAbort = (): void => this.abortRequest?.(abortError(this.signal!));

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly resolve: (res: RemoteResponse) => void,
    private readonly reject: (err: Error) => void,
  ) {
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  // --- undici's handler ---

  onConnect(abort: (err: Error) => void): void {
    this.abortRequest = abort;
    if (this.signal?.aborted) abort(abortError(this.signal));
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], _resume: () => void, _statusText: string): boolean {
    if (statusCode < 200) return true; // 1xx: informational, the response follows
    this.statusCode = statusCode;
    this.raw = rawHeaders;
    this.started = true;
    this.resolve(this);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.consumer) this.consumer(chunk);
    else this.early?.push(chunk);
    return true;
  }

  onComplete(): void {
    this.finish({ kind: 'ended' });
  }

  onError(err: Error): void {
    if (!this.started) {
      this.signal?.removeEventListener('abort', this.onAbort);
      this.reject(err);
      return;
    }
    this.finish({ kind: 'failed', error: err });
  }

  // --- the response ---

  header(name: string): string | undefined {
    const raw = this.raw;
    let found: string | undefined;
    // Names arrive as sent; a header is found by its length first, then case-insensitively.
    for (let i = 0; i < raw.length; i += 2) {
      const key = raw[i]!;
      if (key.length !== name.length || key.toString('latin1').toLowerCase() !== name) continue;
      const value = raw[i + 1]!.toString('latin1');
      found = found === undefined ? value : `${found}, ${value}`;
    }
    return found;
  }

  headers(): Record<string, string | string[]> {
    if (this.parsed) return this.parsed;
    const out: Record<string, string | string[]> = {};
    for (let i = 0; i < this.raw.length; i += 2) {
      const name = this.raw[i]!.toString('latin1').toLowerCase();
      const value = this.raw[i + 1]!.toString('latin1');
      const had = out[name];
      out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
    }
    return (this.parsed = out);
  }

  read(onChunk: (chunk: Buffer) => void): Promise<void> {
    if (this.consumer || this.early === undefined) return Promise.reject(new Error('the body was read already'));
    const early = this.early;
    this.early = undefined;
    this.consumer = onChunk;
    for (const chunk of early) onChunk(chunk);
    const state = this.state;
    if (state.kind === 'ended') return Promise.resolve();
    if (state.kind === 'failed') return Promise.reject(state.error);
    return new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
  }

  async text(): Promise<string> {
    const chunks: Buffer[] = [];
    await this.read((chunk) => chunks.push(chunk));
    return chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
  }

  async dump(): Promise<void> {
    // Read and dropped, so the connection can serve the next request; a body past DUMP_LIMIT (a
    // stream, a large error page) is cut instead, with its connection, as undici's own dump does.
    let bytes = 0;
    await this.read((chunk) => {
      bytes += chunk.length;
      if (bytes > DUMP_LIMIT) this.cancel();
    }).catch(() => undefined);
  }

  cancel(): void {
    if (this.state.kind === 'open') this.abortRequest?.(new DOMException('The response body was not wanted', 'AbortError'));
  }

  private finish(state: BodyState): void {
    if (this.state.kind !== 'open') return;
    this.state = state;
    this.signal?.removeEventListener('abort', this.onAbort);
    const settle = this.settle;
    this.settle = undefined;
    if (!settle) return;
    if (state.kind === 'failed') settle.reject(state.error);
    else settle.resolve();
  }
}
