/**
 * The inspector's live feed for the window. The engine's feed is the hub's
 * `GET /api/inspector/live` (history catch-up, gap detection, back-pressure): the main process
 * reads that stream on loopback with the hub token and forwards each event over IPC, reopening
 * it from the last seq seen when it drops — so both bridges get one implementation of the feed.
 */
import type { InspectorLiveQuery, InspectorLiveReady } from '../../shared/api/app-contract.js';
import type { CaptureEvent } from '../../shared/api/inspector-contract.js';
import type { Logger } from '../core/index.js';
import { SseParser } from '../core/index.js';

export interface LiveEndpoint {
  url: string;
  token: string | undefined;
}

export interface InspectorLiveOptions {
  /** The running hub's base URL and token, looked up at each (re)connect; undefined while stopped. */
  endpoint(): Promise<LiveEndpoint | undefined>;
  query: InspectorLiveQuery;
  onReady(ready: InspectorLiveReady): void;
  onEvent(event: CaptureEvent): void;
  logger: Logger;
  retryDelays?: number[];
}

export function openInspectorLive(options: InspectorLiveOptions): () => void {
  const delays = options.retryDelays ?? [250, 1000, 2000, 5000];
  let cursor = options.query.cursor;
  let stopped = false;
  let attempt = 0;
  let controller: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;

  const retry = (): void => {
    if (stopped) return;
    timer = setTimeout(() => void connect(), delays[Math.min(attempt++, delays.length - 1)]);
  };

  const connect = async (): Promise<void> => {
    const endpoint = await options.endpoint().catch(() => undefined);
    if (stopped) return;
    if (!endpoint) return retry();
    const params = new URLSearchParams();
    if (cursor !== undefined) params.set('cursor', String(cursor));
    if (options.query.server) params.set('server', options.query.server);
    if (options.query.session) params.set('session', options.query.session);
    if (options.query.view) params.set('view', options.query.view);
    controller = new AbortController();
    try {
      const res = await fetch(`${endpoint.url}/api/inspector/live?${params}`, {
        headers: { Accept: 'text/event-stream', ...(endpoint.token ? { Authorization: `Bearer ${endpoint.token}` } : {}) },
        signal: controller.signal,
      });
      if (!res.ok || !res.body) {
        await res.body?.cancel();
        options.logger.warn(`inspector live feed answered HTTP ${res.status}; retrying`);
        return retry();
      }
      const parser = new SseParser((e) => {
        if (e.event === 'ready') {
          attempt = 0;
          const ready = JSON.parse(e.data) as InspectorLiveReady;
          if (cursor === undefined) cursor = ready.cursor;
          options.onReady(ready);
        } else if (e.event === 'capture') {
          const event = JSON.parse(e.data) as CaptureEvent;
          cursor = event.seq;
          options.onEvent(event);
        }
      });
      const decoder = new TextDecoder();
      for await (const chunk of res.body) parser.push(decoder.decode(chunk as Uint8Array, { stream: true }));
    } catch (err) {
      if (stopped) return;
      options.logger.debug(`inspector live feed dropped: ${(err as Error).message}`);
    }
    retry();
  };

  void connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    controller?.abort();
  };
}
