/**
 * The postMessage channel between the playground and one MCP App's iframe, as a Transport for
 * ext-apps' AppBridge (the host side of SEP-1865). It is the trust boundary: a message counts
 * only when it comes from this iframe's window, is JSON-RPC 2.0 of a sane size, and fits the
 * rate limit; anything else is dropped before the bridge sees it. A flood stops the app
 * (`onAbuse`), so a looping `postMessage` cannot starve the page.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/** Messages an app may send in a burst, and how many per second after that. */
export const BURST = 200;
export const PER_SECOND = 100;
/** Messages dropped over the limit before the app is stopped. */
export const ABUSE_DROPS = 500;
/** The largest message accepted (as JSON), and the longest method name. */
const MAX_BYTES = 4 * 1024 * 1024;
const MAX_METHOD = 200;

/** Whether a value is a JSON-RPC 2.0 message the bridge can take (request, notification or response). */
export function isJsonRpcMessage(data: unknown): data is JSONRPCMessage {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return false;
  const m = data as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return false;
  const idOk = (id: unknown): boolean => (typeof id === 'string' && id.length <= 200) || (typeof id === 'number' && Number.isFinite(id));
  if ('method' in m) {
    if (typeof m.method !== 'string' || m.method.length === 0 || m.method.length > MAX_METHOD) return false;
    if ('id' in m && !idOk(m.id)) return false;
    return m.params === undefined || (m.params !== null && typeof m.params === 'object' && !Array.isArray(m.params));
  }
  return idOk(m.id) && ('result' in m) !== ('error' in m);
}

/** A token bucket on a clock the caller gives (tests drive it). */
export class RateLimit {
  private tokens = BURST;
  private last: number;
  constructor(private readonly now: () => number = () => performance.now()) {
    this.last = now();
  }
  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(BURST, this.tokens + ((t - this.last) / 1000) * PER_SECOND);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

export interface AppChannelEvents {
  /** The sandbox page loaded and waits for the app's HTML. */
  sandboxReady(): void;
  /** The app sent more than the rate limit allows, for long enough: stop it. */
  abuse(reason: string): void;
}

export class AppChannel implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  /** Messages dropped: malformed, too big, or over the rate limit. */
  dropped = 0;
  private overLimit = 0;
  private readonly limit: RateLimit;
  private closed = false;
  private readonly listener = (event: MessageEvent): void => this.receive(event);

  constructor(
    private readonly frame: () => Window | null,
    private readonly events: AppChannelEvents,
    now?: () => number,
    private readonly target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
  ) {
    this.limit = new RateLimit(now);
    this.target.addEventListener('message', this.listener as EventListener);
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    // The app's document has an opaque origin (sandbox without allow-same-origin): '*' is the only target origin that reaches it.
    if (!this.closed) this.frame()?.postMessage(message, '*');
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.target.removeEventListener('message', this.listener as EventListener);
    this.onclose?.();
    return Promise.resolve();
  }

  private receive(event: MessageEvent): void {
    const frame = this.frame();
    if (this.closed || frame === null || event.source !== frame) return;
    if (!this.limit.take()) {
      this.dropped++;
      if (++this.overLimit === ABUSE_DROPS) this.events.abuse(`it sent more than ${PER_SECOND} messages a second`);
      return;
    }
    const data: unknown = event.data;
    if (data !== null && typeof data === 'object' && (data as { type?: unknown }).type === 'patchbay/app-sandbox-ready') {
      this.events.sandboxReady();
      return;
    }
    if (!isJsonRpcMessage(data) || tooBig(data)) {
      this.dropped++;
      return;
    }
    try {
      this.onmessage?.(data);
    } catch (err) {
      // The bridge refused it (a schema it does not know): the app's problem, not the page's.
      this.dropped++;
      this.onerror?.(err as Error);
    }
  }
}

function tooBig(data: unknown): boolean {
  try {
    return JSON.stringify(data).length > MAX_BYTES;
  } catch {
    return true;
  }
}
