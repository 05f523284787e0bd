/**
 * The bridge for a browser tab: `POST /api/call/<name>` (JSON, the session cookie rides along)
 * and `GET /api/events` as server-sent events. EventSource resumes by itself with Last-Event-ID
 * after a network blip; when the stream fails for good (engine restarted, login ended) we reopen
 * it with `?since=<last cursor>` and back off, and a 401 tells the UI to log in again.
 */
import type { ApiEvent, ApiResult } from '../../shared/api/contract.js';
import type { AppContract } from '../../shared/api/app-contract.js';
import type { Bridge, BridgeStatus } from './bridge.js';
import { EVENT_CHANNELS } from './event-channels.js';

export interface HttpBridgeOptions {
  /** Origin + path prefix of the engine; '' means this page's origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  EventSource?: typeof EventSource;
  /** Backoff between reopen attempts, in ms. */
  retryDelays?: number[];
}

export function createHttpBridge(options: HttpBridgeOptions = {}): Bridge {
  const base = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const ES = options.EventSource ?? EventSource;
  const delays = options.retryDelays ?? [250, 1000, 2000, 5000];
  const statusListeners = new Set<(s: BridgeStatus) => void>();
  let status: BridgeStatus = { state: 'connecting' };
  const setStatus = (next: BridgeStatus): void => {
    status = next;
    for (const l of statusListeners) l(next);
  };

  const loggedOut = (): void => {
    if (status.state !== 'logged-out') setStatus({ state: 'logged-out' });
  };

  return {
    kind: 'http',
    async call(name, input) {
      let res: Response;
      try {
        res = await doFetch(`${base}/api/call/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          credentials: 'same-origin',
          body: JSON.stringify(input ?? {}),
        });
      } catch {
        return { ok: false, code: 'unreachable', message: 'Cannot reach the Patchbay engine. Is `patchbay serve` still running?' };
      }
      if (res.status === 401) {
        loggedOut();
        return { ok: false, code: 'unauthorized', message: 'Your login has ended. Open a new login link from `patchbay serve`, or log in again.' };
      }
      try {
        return (await res.json()) as ApiResult<never>;
      } catch {
        return { ok: false, code: 'bad_response', message: `The engine answered ${name} with HTTP ${res.status} and no JSON.` };
      }
    },

    subscribe(listener, since) {
      let cursor = since;
      let source: EventSource | undefined;
      let attempt = 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let stopped = false;

      const open = (): void => {
        const url = cursor === undefined ? `${base}/api/events` : `${base}/api/events?since=${cursor}`;
        const es = new ES(url, { withCredentials: true });
        source = es;
        es.addEventListener('api.ready', (e) => {
          attempt = 0;
          const info = JSON.parse((e as MessageEvent<string>).data) as { cursor: number; complete: boolean };
          // A first connection has nothing to resync; a reconnect that missed events does.
          const resync = cursor !== undefined ? !info.complete : false;
          if (cursor === undefined) cursor = info.cursor;
          setStatus({ state: 'live', resync });
        });
        for (const channel of EVENT_CHANNELS) {
          es.addEventListener(channel, (e) => {
            const m = e as MessageEvent<string>;
            const eventCursor = Number(m.lastEventId);
            if (Number.isFinite(eventCursor)) cursor = eventCursor;
            listener({ channel, cursor: eventCursor, payload: JSON.parse(m.data) } as ApiEvent<AppContract>);
          });
        }
        es.onerror = () => {
          if (stopped) return;
          // CONNECTING: the browser retries by itself (with Last-Event-ID). CLOSED: it gave up.
          if (es.readyState !== ES.CLOSED) {
            setStatus({ state: 'reconnecting', reason: 'The connection to the engine dropped; reconnecting…' });
            return;
          }
          es.close();
          void probeAuth().then((authorized) => {
            if (stopped) return;
            if (!authorized) return loggedOut();
            setStatus({ state: 'reconnecting', reason: 'The engine is not answering; retrying…' });
            timer = setTimeout(open, delays[Math.min(attempt++, delays.length - 1)]);
          });
        };
      };

      // An EventSource error hides the HTTP status: ask with a call whether the login is the problem.
      const probeAuth = async (): Promise<boolean> => {
        try {
          const res = await doFetch(`${base}/api/calls`, { credentials: 'same-origin' });
          return res.status !== 401;
        } catch {
          return true;
        }
      };

      open();
      return () => {
        stopped = true;
        clearTimeout(timer);
        source?.close();
      };
    },

    inspectorLive(query, onEvent, onReady) {
      let cursor = query.cursor;
      let es: EventSource | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let stopped = false;
      let attempt = 0;
      const open = (): void => {
        const params = new URLSearchParams();
        if (cursor !== undefined) params.set('cursor', String(cursor));
        if (query.server) params.set('server', query.server);
        if (query.session) params.set('session', query.session);
        if (query.view) params.set('view', query.view);
        const source = new ES(`${base}/api/inspector/live?${params}`, { withCredentials: true });
        es = source;
        source.addEventListener('ready', (e) => {
          attempt = 0;
          const ready = JSON.parse((e as MessageEvent<string>).data) as { cursor: number; complete: boolean };
          if (cursor === undefined) cursor = ready.cursor;
          onReady(ready);
        });
        source.addEventListener('capture', (e) => {
          const m = e as MessageEvent<string>;
          const event = JSON.parse(m.data) as Parameters<typeof onEvent>[0];
          cursor = event.seq;
          onEvent(event);
        });
        source.onerror = () => {
          if (stopped || source.readyState !== ES.CLOSED) return;
          source.close();
          // Reopened from the last seq seen: the engine replays what was missed.
          timer = setTimeout(open, delays[Math.min(attempt++, delays.length - 1)]);
        };
      };
      open();
      return () => {
        stopped = true;
        clearTimeout(timer);
        es?.close();
      };
    },

    onStatus(listener) {
      statusListeners.add(listener);
      listener(status);
      return () => statusListeners.delete(listener);
    },
  };
}
