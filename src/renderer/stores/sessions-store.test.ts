import { describe, expect, it } from 'vitest';
import type { CaptureEvent, InspectorSession } from '../../shared/api/inspector-contract.js';
import { createSessionsStore } from './sessions-store.js';

const info = (id: string, over: Partial<InspectorSession> = {}): InspectorSession => ({
  id, server: 'fx', transport: { client: 'streamable-http', upstream: 'stdio' }, debug: false, startedAt: 1, state: 'live', restarts: 0,
  messages: { client: { toServer: 0, toClient: 0 }, upstream: { toServer: 0, toClient: 0 } },
  bytes: { client: { toServer: 0, toClient: 0 }, upstream: { toServer: 0, toClient: 0 } },
  exchanges: { total: 0, pending: 0, ok: 0, error: 0, cancelled: 0, timeout: 0, orphaned: 0 },
  errors: 0, stderrLines: 0, dropped: 0, inMemory: true, ...over,
});
let seq = 0;
const ev = (session: string, over: Partial<CaptureEvent> = {}): CaptureEvent => ({ seq: ++seq, session, server: 'fx', time: seq, origin: 'server', kind: 'stderr', text: `line ${seq}`, size: 5, ...over });

describe('sessions store', () => {
  it('captureBatchReceived appends only the open session\'s events and bumps the version once per batch', () => {
    const store = createSessionsStore();
    store.getState().sessionOpened('a');
    store.getState().captureBatchReceived([ev('a'), ev('b'), ev('a')]);
    const open = store.getState().open!;
    expect(open.timeline.rows).toHaveLength(2);
    expect(open.version).toBe(1);
  });

  it('a lifecycle event with sessionInfo adds a new session to the list and updates the open one', () => {
    const store = createSessionsStore();
    store.getState().sessionsListed([info('old')], 1);
    store.getState().sessionOpened('new');
    store.getState().captureBatchReceived([ev('new', { kind: 'lifecycle', origin: 'hub', text: 'opened', sessionInfo: info('new', { state: 'live' }) })]);
    expect(store.getState().sessions.map((s) => s.id)).toEqual(['new', 'old']);
    expect(store.getState().open?.info?.id).toBe('new');
    store.getState().sessionInfoReceived(info('new', { state: 'closed' }));
    expect(store.getState().sessions[0]?.state).toBe('closed');
    expect(store.getState().open?.info?.state).toBe('closed');
  });

  it('history pages for another session are ignored; the last page ends loading', () => {
    const store = createSessionsStore();
    store.getState().sessionOpened('a');
    store.getState().historyPageLoaded('b', [ev('b')], true);
    expect(store.getState().open?.loading).toBe(true);
    store.getState().historyPageLoaded('a', [ev('a')], true);
    expect(store.getState().open).toMatchObject({ loading: false, version: 1 });
  });
});
