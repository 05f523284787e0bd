/**
 * The inspector's **Render** for an MCP App: a `resources/read` of a `ui://` resource whose answer
 * is an app's HTML shows the app, in the playground's sandbox (app-view.tsx), read-only — it gets
 * no tool input or result (there was no call), and every tool call it makes is refused.
 */
import { lazy, Suspense, useState } from 'react';
import type { Exchange } from '../../../shared/api/inspector-contract.js';
import { Icon } from '../../components/icons.js';
import { useServices } from '../../app/services.js';
import { appResourceOf } from '../playground/app-ui.js';

const AppFrame = lazy(() => import('../playground/app-view.js').then((m) => ({ default: m.AppFrame })));

export function AppRender({ exchange }: { exchange: Exchange }) {
  const services = useServices();
  const [shown, setShown] = useState(false);
  const uri = (exchange.request as { params?: { uri?: unknown } } | undefined)?.params?.uri;
  if (exchange.method !== 'resources/read' || typeof uri !== 'string' || !uri.startsWith('ui://')) return null;
  const app = appResourceOf((exchange.response as { result?: unknown } | undefined)?.result, uri);
  if (!app.ok) return null;
  return (
    <section className="app-view" aria-label={`App ${uri}`} data-testid="app-render">
      <header className="app-view-head">
        <span className="chip">MCP App</span>
        <button type="button" className="button button-small" aria-pressed={shown} onClick={() => setShown(!shown)} data-testid="app-render-toggle">
          <Icon name={shown ? 'stop' : 'play'} /> {shown ? 'Hide app' : 'Render'}
        </button>
        <span className="muted small">read-only: the app may not call tools</span>
      </header>
      {shown && (
        <Suspense fallback={<p className="muted small">Loading the app…</p>}>
          <AppFrame server={exchange.server} tool={uri} uri={uri} readOnly app={app.value} services={services} onStop={() => setShown(false)} />
        </Suspense>
      )}
    </section>
  );
}
