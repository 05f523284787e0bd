/**
 * The inspector side of the UI: list sessions, open one (history pages, then the live feed from
 * where history ended), search, export, replay. Live events are batched (one store update per
 * BATCH_MS) so a flood of messages costs a few renders a second, not one per message.
 */
import type { CaptureEvent } from '../../shared/api/inspector-contract.js';
import type { Services } from './services.js';

const BATCH_MS = 100;
const HISTORY_PAGE = 5000;
/** The first page is small so the first rows show at once; the rest come in large pages. */
const FIRST_HISTORY_PAGE = 500;
const LIST_REFRESH_MS = 1000;
/** One session's record is cheap to fetch: its header keeps closer pace with the rows. */
const INFO_REFRESH_MS = 250;

export async function loadSessions({ bridge, stores }: Services): Promise<void> {
  const r = await bridge.call('inspector.sessions.list', { limit: 500 });
  if (r.ok) stores.sessions.getState().sessionsListed(r.value.sessions, r.value.total);
  else stores.sessions.getState().sessionsListFailed(r.message);
}

/** Collects events and hands them to `flush` at most every BATCH_MS. */
function batcher(flush: (events: CaptureEvent[]) => void): { push(e: CaptureEvent): void; stop(): void } {
  let buffer: CaptureEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = (): void => {
    timer = undefined;
    const batch = buffer;
    buffer = [];
    if (batch.length > 0) flush(batch);
  };
  return {
    push(e) {
      buffer.push(e);
      timer ??= setTimeout(run, BATCH_MS);
    },
    stop() {
      clearTimeout(timer);
      run();
    },
  };
}

/**
 * Runs `run` at once when it has not run for `ms`, else once when `ms` have passed since it last
 * ran: counts follow the first traffic after a quiet spell immediately (a trailing-only timer left
 * the header at "1 calls" for a second while the rows already showed five), and a flood costs one
 * call per `ms`.
 */
function throttle(run: () => void, ms: number): { poke(): void; stop(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = -Infinity;
  const fire = (): void => {
    timer = undefined;
    last = Date.now();
    run();
  };
  return {
    poke() {
      timer ??= setTimeout(fire, Math.max(0, last + ms - Date.now()));
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** The list screen: lifecycle changes at once, counts refreshed at most once a second while traffic flows. */
export function watchSessionsList(services: Services): () => void {
  const refresh = throttle(() => void loadSessions(services), LIST_REFRESH_MS);
  const batch = batcher((events) => {
    services.stores.sessions.getState().captureBatchReceived(events.filter((e) => e.sessionInfo));
    refresh.poke();
  });
  const stop = services.bridge.inspectorLive({ view: 'events' }, batch.push, () => void loadSessions(services));
  return () => {
    stop();
    batch.stop();
    refresh.stop();
  };
}

/** Opens a session: its history page by page (the first page shows at once), then live events. */
export function openSession(services: Services, id: string): () => void {
  const { bridge, stores } = services;
  const store = stores.sessions;
  store.getState().sessionOpened(id);
  let stopped = false;
  let stopLive: (() => void) | undefined;
  // The header's counts (calls, errors) come from the session record: refreshed at most 4 times a second.
  const refreshInfo = throttle(() => {
    void bridge.call('inspector.sessions.get', { session: id }).then((r) => {
      if (!stopped && r.ok) store.getState().sessionInfoReceived(r.value);
    });
  }, INFO_REFRESH_MS);
  const batch = batcher((events) => {
    store.getState().captureBatchReceived(events);
    refreshInfo.poke();
  });

  void (async () => {
    const info = await bridge.call('inspector.sessions.get', { session: id });
    if (stopped) return;
    if (info.ok) store.getState().sessionInfoReceived(info.value);
    let after: number | undefined;
    for (;;) {
      const page = await bridge.call('inspector.events.list', { session: id, limit: after === undefined ? FIRST_HISTORY_PAGE : HISTORY_PAGE, ...(after === undefined ? {} : { after }) });
      if (stopped) return;
      if (!page.ok) {
        store.getState().historyFailed(id, page.message);
        break;
      }
      const done = page.value.next === undefined || page.value.events.length === 0;
      store.getState().historyPageLoaded(id, page.value.events, done);
      if (done) break;
      after = page.value.next;
    }
    const open = store.getState().open;
    const cursor = open && open.id === id ? open.timeline.lastSeq : undefined;
    stopLive = bridge.inspectorLive({ session: id, ...(cursor ? { cursor } : {}) }, batch.push, (ready) => {
      if (!ready.complete) store.getState().liveGapDetected(id);
    });
  })();

  return () => {
    stopped = true;
    stopLive?.();
    batch.stop();
    refreshInfo.stop();
  };
}

export async function exportSession({ bridge }: Services, id: string, format: 'jsonl' | 'har'): Promise<string | undefined> {
  const r = await bridge.call('inspector.export', { session: id, format });
  if (!r.ok) return r.message;
  const blob = new Blob([r.value.content], { type: r.value.mediaType });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = r.value.fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return undefined;
}
