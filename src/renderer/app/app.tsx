/** The shell: skip link, navigation, connection banner, the current screen, notices, the palette. */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { ServersScreen } from '../screens/servers/servers-screen.js';
import { ConnectionBanner } from './connection-banner.js';
import { refreshAll, startEvents } from './commands.js';
import { useFirstRun } from './first-run.js';
import { Nav } from './nav.js';
import { Notices } from './notices.js';
import { Palette } from './palette.js';
import { useRoute } from './router.js';
import { ServicesProvider, useServices, type Services } from './services.js';
import { useGlobalShortcuts } from './shortcuts.js';

// Screens other than the first one load when first visited: the first paint carries less.
const SessionsScreen = lazy(() => import('../screens/sessions/sessions-screen.js').then((m) => ({ default: m.SessionsScreen })));
const ClientsScreen = lazy(() => import('../screens/clients/clients-screen.js').then((m) => ({ default: m.ClientsScreen })));
const KeysScreen = lazy(() => import('../screens/keys/keys-screen.js').then((m) => ({ default: m.KeysScreen })));
const ProfilesScreen = lazy(() => import('../screens/profiles/profiles-screen.js').then((m) => ({ default: m.ProfilesScreen })));
const AuditScreen = lazy(() => import('../screens/audit/audit-screen.js').then((m) => ({ default: m.AuditScreen })));
const SettingsScreen = lazy(() => import('../screens/settings/settings-screen.js').then((m) => ({ default: m.SettingsScreen })));

export function App({ services }: { services: Services }) {
  useEffect(() => {
    const stop = startEvents(services);
    void refreshAll(services);
    return stop;
  }, [services]);
  return (
    <ServicesProvider services={services}>
      <Shell />
    </ServicesProvider>
  );
}

function Shell() {
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  const [palette, setPalette] = useState(false);
  const openPalette = useCallback(() => setPalette(true), []);
  useGlobalShortcuts(openPalette);
  useFirstRun();
  // A new screen starts at its top (the last one's scroll position is not carried over), and
  // moves focus to the content, so keyboard and screen-reader users land there.
  // The page is the route without the playground's chosen item: picking a tool keeps the place.
  const page = JSON.stringify({ ...route, item: undefined });
  const first = useRef(true);
  const { stores } = useServices();
  useEffect(() => {
    // Notices tied to the last page (a server's failure) stay there.
    stores.notices.getState().pageChanged(page);
    main.current?.scrollTo({ top: 0 });
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus({ preventScroll: true });
  }, [page, stores]);
  return (
    <div className="shell">
      <a className="skip-link" href="#main" onClick={(e) => { e.preventDefault(); main.current?.focus(); }}>
        Skip to content
      </a>
      <Nav current={route.screen} onPalette={openPalette} />
      <div className="shell-body">
        <ConnectionBanner />
        <main id="main" ref={main} tabIndex={-1} className={`main main-${route.screen}`}>
          <Suspense fallback={<p className="muted screen"><span className="spinner" aria-hidden="true" /> Loading…</p>}>
            {route.screen === 'servers' && <ServersScreen route={route} />}
            {route.screen === 'profiles' && <ProfilesScreen name={route.name} mode={route.mode} item={route.item} />}
            {route.screen === 'keys' && <KeysScreen />}
            {route.screen === 'sessions' && <SessionsScreen sessionId={route.sessionId} />}
            {route.screen === 'clients' && <ClientsScreen exportClient={route.exportClient} />}
            {route.screen === 'audit' && <AuditScreen />}
            {route.screen === 'settings' && <SettingsScreen />}
          </Suspense>
        </main>
        <Notices />
      </div>
      <Palette open={palette} onClose={() => setPalette(false)} />
    </div>
  );
}
