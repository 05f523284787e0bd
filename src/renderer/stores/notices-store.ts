/**
 * Notices belong to the moment and the place they describe (issue 28):
 * - a confirmation ("Saved fs") lives a few seconds from when it was raised — its timer is the
 *   store's, started once, so no re-render or change of screen restarts it;
 * - an error about something that happened on its own (a server crashed) stays until dismissed,
 *   but only on the page where it appeared: leaving that page dismisses it, since what it says
 *   stays in view where it belongs (the server's row and page).
 */
import { createStore } from 'zustand/vanilla';

export interface Notice {
  id: number;
  text: string;
  /** `error`: something failed on its own (a server crashed); announced assertively, stays until dismissed or the page is left. */
  tone?: 'info' | 'error' | undefined;
  /** Where to look (a link in the notice). */
  href?: string | undefined;
  /** One action in the notice (Undo). */
  action?: { label: string; run(): void } | undefined;
  /** The page it was raised on (`pageChanged`'s key); an error notice goes when the person leaves it. */
  page?: string | undefined;
}

export interface NoticesState {
  notices: Notice[];
  /** The page the person is on (set by the shell), for notices that belong to it. */
  page: string | undefined;
  noticePosted(text: string, extra?: Omit<Notice, 'id' | 'text' | 'page'>): number;
  noticeDismissed(id: number): void;
  /** The person moved to another page: notices tied to the last one go. */
  pageChanged(page: string): void;
}

/** How long a confirmation stays, from when it was raised; one with an action (Undo) a little longer. */
export const NOTICE_MS = 5000;
export const NOTICE_WITH_ACTION_MS = 8000;

let nextId = 1;

export function createNoticesStore() {
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const store = createStore<NoticesState>()((set, get) => ({
    notices: [],
    page: undefined,
    noticePosted: (text, extra = {}) => {
      const id = nextId++;
      const notice: Notice = { id, text, ...extra };
      if (notice.tone === 'error') notice.page = get().page;
      else timers.set(id, setTimeout(() => get().noticeDismissed(id), notice.action ? NOTICE_WITH_ACTION_MS : NOTICE_MS));
      // Only the latest few: a live region reading a backlog helps nobody.
      set((s) => {
        const kept = [...s.notices, notice].slice(-3);
        for (const gone of s.notices) if (!kept.includes(gone)) clear(gone.id);
        return { notices: kept };
      });
      return id;
    },
    noticeDismissed: (id) => {
      clear(id);
      set((s) => (s.notices.some((n) => n.id === id) ? { notices: s.notices.filter((n) => n.id !== id) } : s));
    },
    pageChanged: (page) =>
      set((s) => {
        if (s.page === page) return s;
        const kept = s.notices.filter((n) => n.page === undefined || n.page === page);
        return { page, notices: kept.length === s.notices.length ? s.notices : kept };
      }),
  }));
  function clear(id: number): void {
    clearTimeout(timers.get(id));
    timers.delete(id);
  }
  return store;
}
