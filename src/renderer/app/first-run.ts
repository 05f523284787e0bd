/**
 * The first visit to a fresh install opens the demo server's playground: a person who just ran
 * `npm start` lands on a working server with tools to call, not on an empty list. Only when the
 * page was opened without a screen in its URL (the login link), and once per browser.
 */
import { useEffect, useRef } from 'react';
import { href } from './router.js';
import { useServers } from './services.js';

const SEEN = 'patchbay.demoOpened';

export function useFirstRun(): void {
  const loaded = useServers((s) => s.loaded);
  const demo = useServers((s) => s.order.find((id) => s.byId[id]?.config.demo === true && s.byId[id]?.status.state !== 'disabled'));
  const noScreen = useRef(typeof window !== 'undefined' && (window.location.hash === '' || window.location.hash === '#' || window.location.hash === '#/'));
  useEffect(() => {
    if (!loaded || !noScreen.current) return;
    noScreen.current = false;
    if (!demo) return;
    try {
      if (localStorage.getItem(SEEN) === '1') return;
      localStorage.setItem(SEEN, '1');
    } catch {
      // No storage (a locked-down browser): open it anyway.
    }
    window.location.replace(href('servers', demo, 'playground'));
  }, [loaded, demo]);
}
