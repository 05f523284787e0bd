/** The main navigation: links (real hrefs, so keyboard, middle-click and screen readers just work). */
import { Icon, type IconName } from '../components/icons.js';
import type { Route } from './router.js';
import { href } from './router.js';
import { useAppState } from './services.js';

// Screens in the order people use them.
const ITEMS: Array<{ screen: Route['screen']; label: string; icon: IconName }> = [
  { screen: 'servers', label: 'Servers', icon: 'servers' },
  { screen: 'profiles', label: 'Profiles', icon: 'profiles' },
  { screen: 'sessions', label: 'Sessions', icon: 'sessions' },
  { screen: 'clients', label: 'Clients', icon: 'clients' },
  { screen: 'audit', label: 'Audit', icon: 'audit' },
  { screen: 'keys', label: 'Keys & logins', icon: 'keys' },
  { screen: 'settings', label: 'Settings', icon: 'settings' },
];

export function Nav({ current, onPalette }: { current: Route['screen']; onPalette(): void }) {
  const version = useAppState((s) => s.hub?.version);
  return (
    <nav className="nav" aria-label="Main">
      <div className="brand">
        <svg aria-hidden="true" width="24" height="24" viewBox="0 0 32 32">
          <rect width="32" height="32" rx="8" fill="currentColor" />
          <circle cx="10" cy="11" r="3" fill="var(--surface)" />
          <circle cx="22" cy="21" r="3" fill="var(--surface)" />
          <path d="M10 11c6 0 6 10 12 10" stroke="var(--surface)" strokeWidth="2.5" fill="none" />
        </svg>
        <span>Patchbay</span>
      </div>
      <button type="button" className="nav-jump" onClick={onPalette} data-testid="open-palette">
        <Icon name="search" />
        <span className="nav-label">Jump to…</span>
        <kbd>Ctrl K</kbd>
      </button>
      <ul>
        {ITEMS.map((item) => (
          <li key={item.screen}>
            <a href={href(item.screen)} aria-current={current === item.screen ? 'page' : undefined} data-testid={`nav-${item.screen}`}>
              <Icon name={item.icon} />
              <span className="nav-label">{item.label}</span>
            </a>
          </li>
        ))}
      </ul>
      {version && <p className="nav-foot">Patchbay {version}</p>}
    </nav>
  );
}
