/** The main navigation: links (real hrefs, so keyboard, middle-click and screen readers just work). */
import type { Route } from './router.js';
import { href } from './router.js';
import { useAppState } from './services.js';

const ITEMS: Array<{ screen: Route['screen']; label: string }> = [
  { screen: 'servers', label: 'Servers' },
  { screen: 'keys', label: 'Keys & logins' },
  { screen: 'sessions', label: 'Sessions' },
  { screen: 'clients', label: 'Clients' },
  { screen: 'settings', label: 'Settings' },
];

export function Nav({ current }: { current: Route['screen'] }) {
  const version = useAppState((s) => s.hub?.version);
  return (
    <nav className="nav" aria-label="Main">
      <div className="brand">
        <svg aria-hidden="true" width="22" height="22" viewBox="0 0 32 32">
          <rect width="32" height="32" rx="7" fill="currentColor" />
          <circle cx="10" cy="11" r="3" fill="var(--bg)" />
          <circle cx="22" cy="21" r="3" fill="var(--bg)" />
          <path d="M10 11c6 0 6 10 12 10" stroke="var(--bg)" strokeWidth="2.5" fill="none" />
        </svg>
        <span>Patchbay</span>
      </div>
      <ul>
        {ITEMS.map((item) => (
          <li key={item.screen}>
            <a href={href(item.screen)} aria-current={current === item.screen ? 'page' : undefined} data-testid={`nav-${item.screen}`}>
              {item.label}
            </a>
          </li>
        ))}
      </ul>
      {version && <p className="nav-foot">v{version}</p>}
    </nav>
  );
}
