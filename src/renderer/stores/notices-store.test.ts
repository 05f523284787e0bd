import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createNoticesStore, NOTICE_MS, NOTICE_WITH_ACTION_MS } from './notices-store.js';

describe('notices store', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a confirmation lives its time from when it was raised, whatever the person does meanwhile', () => {
    const store = createNoticesStore();
    store.getState().pageChanged('servers');
    store.getState().noticePosted('Saved fs');
    vi.advanceTimersByTime(NOTICE_MS - 1000);
    // Changing screens (which re-renders the shell) does not restart it, nor drop it.
    store.getState().pageChanged('sessions');
    store.getState().pageChanged('settings');
    expect(store.getState().notices.map((n) => n.text)).toEqual(['Saved fs']);
    vi.advanceTimersByTime(1000);
    expect(store.getState().notices).toEqual([]);
  });

  it('one with an action stays a little longer; dismissing it clears its timer', () => {
    const store = createNoticesStore();
    const id = store.getState().noticePosted('Removed fs', { action: { label: 'Undo', run: () => undefined } });
    vi.advanceTimersByTime(NOTICE_MS);
    expect(store.getState().notices).toHaveLength(1);
    vi.advanceTimersByTime(NOTICE_WITH_ACTION_MS - NOTICE_MS);
    expect(store.getState().notices).toHaveLength(0);
    const again = store.getState().noticePosted('Saved fs');
    store.getState().noticeDismissed(again);
    expect(vi.getTimerCount()).toBe(0);
    expect(id).not.toBe(again);
  });

  it("a server's error stays on the page where it appeared, and goes when the person leaves it", () => {
    const store = createNoticesStore();
    store.getState().pageChanged('settings');
    store.getState().noticePosted('Server fx failed: exited with code 3', { tone: 'error', href: '#/servers/fx' });
    vi.advanceTimersByTime(60_000);
    store.getState().pageChanged('settings');
    expect(store.getState().notices).toHaveLength(1);
    store.getState().pageChanged('sessions');
    expect(store.getState().notices).toEqual([]);
  });
});
