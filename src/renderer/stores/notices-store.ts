/** Short confirmations ("Saved fs") announced in a polite live region; errors stay where they happened. */
import { createStore } from 'zustand/vanilla';

export interface Notice {
  id: number;
  text: string;
  /** `error`: something failed on its own (a server crashed); announced assertively, stays until dismissed. */
  tone?: 'info' | 'error' | undefined;
  /** Where to look (a link in the notice). */
  href?: string | undefined;
  /** One action in the notice (Undo). */
  action?: { label: string; run(): void } | undefined;
}

export interface NoticesState {
  notices: Notice[];
  noticePosted(text: string, extra?: Omit<Notice, 'id' | 'text'>): number;
  noticeDismissed(id: number): void;
}

let nextId = 1;

export function createNoticesStore() {
  return createStore<NoticesState>()((set) => ({
    notices: [],
    noticePosted: (text, extra = {}) => {
      const id = nextId++;
      // Only the latest few: a live region reading a backlog helps nobody.
      set((s) => ({ notices: [...s.notices, { id, text, ...extra }].slice(-3) }));
      return id;
    },
    noticeDismissed: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
  }));
}
