/**
 * Sessions (the inspector): the live list, and the one session being viewed with its timeline.
 * Captured events arrive in bursts (1,000 messages a second and more): the feed hands them over
 * in batches, the timeline model appends in place, and the store bumps `version` once per batch.
 */
import { createStore } from 'zustand/vanilla';
import type { CaptureEvent, InspectorSession } from '../../shared/api/inspector-contract.js';
import { TimelineModel } from './timeline-model.js';

export interface OpenSession {
  id: string;
  info: InspectorSession | undefined;
  timeline: TimelineModel;
  /** Bumped whenever the timeline changed. */
  version: number;
  /** History pages still loading. */
  loading: boolean;
  loadError: string | undefined;
  /** Events were dropped between history and live: the view may have a gap. */
  gap: boolean;
}

export interface SessionsState {
  sessions: InspectorSession[];
  total: number;
  listLoaded: boolean;
  listError: string | undefined;
  open: OpenSession | undefined;

  sessionsListed(sessions: InspectorSession[], total: number): void;
  sessionsListFailed(message: string): void;
  sessionInfoReceived(info: InspectorSession): void;
  sessionOpened(id: string): void;
  sessionClosed(): void;
  historyPageLoaded(id: string, events: CaptureEvent[], done: boolean): void;
  historyFailed(id: string, message: string): void;
  captureBatchReceived(events: CaptureEvent[]): void;
  liveGapDetected(id: string): void;
}

export type SessionsStore = ReturnType<typeof createSessionsStore>;

export function createSessionsStore() {
  return createStore<SessionsState>()((set, get) => ({
    sessions: [],
    total: 0,
    listLoaded: false,
    listError: undefined,
    open: undefined,

    sessionsListed: (sessions, total) => set({ sessions, total, listLoaded: true, listError: undefined }),
    sessionsListFailed: (message) => set({ listError: message, listLoaded: true }),

    sessionInfoReceived: (info) =>
      set((s) => {
        const i = s.sessions.findIndex((x) => x.id === info.id);
        const sessions = i === -1 ? [info, ...s.sessions] : s.sessions.map((x, j) => (j === i ? info : x));
        const open = s.open && s.open.id === info.id ? { ...s.open, info } : s.open;
        return { sessions, total: i === -1 ? s.total + 1 : s.total, open };
      }),

    sessionOpened: (id) => {
      if (get().open?.id === id) return;
      const info = get().sessions.find((x) => x.id === id);
      set({ open: { id, info, timeline: new TimelineModel(), version: 0, loading: true, loadError: undefined, gap: false } });
    },

    sessionClosed: () => set({ open: undefined }),

    historyPageLoaded: (id, events, done) =>
      set((s) => {
        if (!s.open || s.open.id !== id) return s;
        s.open.timeline.add(events);
        return { open: { ...s.open, version: s.open.version + 1, loading: !done } };
      }),

    historyFailed: (id, message) =>
      set((s) => (s.open && s.open.id === id ? { open: { ...s.open, loading: false, loadError: message } } : s)),

    captureBatchReceived: (events) =>
      set((s) => {
        const open = s.open;
        let changed = false;
        let info = open?.info;
        let sessions = s.sessions;
        for (const e of events) {
          if (e.sessionInfo) {
            const si = e.sessionInfo;
            const i = sessions.findIndex((x) => x.id === si.id);
            sessions = i === -1 ? [si, ...sessions] : sessions.map((x, j) => (j === i ? si : x));
            if (open && si.id === open.id) info = si;
          }
        }
        if (open) {
          const mine = events.filter((e) => e.session === open.id);
          if (mine.length > 0) {
            open.timeline.add(mine);
            changed = true;
          }
        }
        if (!changed && sessions === s.sessions && info === open?.info) return s;
        return { sessions, open: open ? { ...open, info, version: open.version + (changed ? 1 : 0) } : open };
      }),

    liveGapDetected: (id) => set((s) => (s.open && s.open.id === id ? { open: { ...s.open, gap: true } } : s)),
  }));
}
