/** Short confirmations ("Saved fs") announced in a polite live region; errors stay where they happened. */
import { createStore } from 'zustand/vanilla';

export interface Notice {
  id: number;
  text: string;
}

export interface NoticesState {
  notices: Notice[];
  noticePosted(text: string): number;
  noticeDismissed(id: number): void;
}

let nextId = 1;

export function createNoticesStore() {
  return createStore<NoticesState>()((set) => ({
    notices: [],
    noticePosted: (text) => {
      const id = nextId++;
      // Only the latest few: a live region reading a backlog helps nobody.
      set((s) => ({ notices: [...s.notices, { id, text }].slice(-3) }));
      return id;
    },
    noticeDismissed: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
  }));
}
