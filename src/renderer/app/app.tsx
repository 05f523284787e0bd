/** The shell: skip link, navigation, connection banner, the current screen, notices. */
import { useEffect, useRef } from 'react';
import { ClientsScreen } from '../screens/clients/clients-screen.js';
import { KeysScreen } from '../screens/keys/keys-screen.js';
import { ServersScreen } from '../screens/servers/servers-screen.js';
import { SessionsScreen } from '../screens/sessions/sessions-screen.js';
import { SettingsScreen } from '../screens/settings/settings-screen.js';
import { ConnectionBanner } from './connection-banner.js';
import { refreshAll, startEvents } from './commands.js';
import { Nav } from './nav.js';
import { Notices } from './notices.js';
import { useRoute } from './router.js';
import { ServicesProvider, type Services } from './services.js';

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
  // A new screen moves focus to its heading region, so keyboard and screen-reader users land there.
  const screenKey = route.screen;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus({ preventScroll: true });
  }, [screenKey]);
  return (
    <div className="shell">
      <a className="skip-link" href="#main" onClick={(e) => { e.preventDefault(); main.current?.focus(); }}>
        Skip to content
      </a>
      <Nav current={route.screen} />
      <div className="shell-body">
        <ConnectionBanner />
        <main id="main" ref={main} tabIndex={-1} className="main" aria-label={undefined}>
          {route.screen === 'servers' && <ServersScreen route={route} />}
          {route.screen === 'keys' && <KeysScreen />}
          {route.screen === 'sessions' && <SessionsScreen sessionId={route.sessionId} />}
          {route.screen === 'clients' && <ClientsScreen />}
          {route.screen === 'settings' && <SettingsScreen />}
        </main>
      </div>
      <Notices />
    </div>
  );
}
