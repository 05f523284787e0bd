/**
 * The inspector's **Render** for an MCP App, read-only:
 * - a `resources/read` of a `ui://` resource whose answer is an app's HTML shows that HTML in the
 *   playground's sandbox (app-view.tsx); it gets no tool input or result (there was no call);
 * - a `tools/call` whose tool has a UI (`_meta.ui.resourceUri` in the session's last `tools/list`
 *   before the call) shows the app as the host did: its resource read again through the
 *   playground, then the call's arguments and result sent to it.
 * Either way every tool call the app makes is refused: a look back must not act.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import type { Exchange } from '../../../shared/api/inspector-contract.js';
import { Icon } from '../../components/icons.js';
import { useServices } from '../../app/services.js';
import type { ToolDef } from '../../stores/playground-store.js';
import { appResourceOf, appResourceUri } from '../playground/app-ui.js';

const AppFrame = lazy(() => import('../playground/app-view.js').then((m) => ({ default: m.AppFrame })));
const AppView = lazy(() => import('../playground/app-view.js').then((m) => ({ default: m.AppView })));

export function AppRender({ exchange, sessionId, toolsListSeq }: { exchange: Exchange; sessionId: string; toolsListSeq?: number | undefined }) {
  if (exchange.method === 'tools/call') return <ToolAppRender exchange={exchange} sessionId={sessionId} toolsListSeq={toolsListSeq} />;
  return <ResourceAppRender exchange={exchange} />;
}

function ResourceAppRender({ exchange }: { exchange: Exchange }) {
  const services = useServices();
  const [shown, setShown] = useState(false);
  const uri = (exchange.request as { params?: { uri?: unknown } } | undefined)?.params?.uri;
  if (exchange.method !== 'resources/read' || typeof uri !== 'string' || !uri.startsWith('ui://')) return null;
  const app = appResourceOf((exchange.response as { result?: unknown } | undefined)?.result, uri);
  if (!app.ok) return null;
  return (
    <AppSection uri={uri} shown={shown} onToggle={() => setShown(!shown)}>
      <AppFrame server={exchange.server} tool={uri} uri={uri} readOnly app={app.value} services={services} onStop={() => setShown(false)} />
    </AppSection>
  );
}

/** The tool's `ui://` resource, from the session's `tools/list` answer before the call. */
function useToolUri(sessionId: string, toolsListSeq: number | undefined, name: string | undefined): string | undefined {
  const { bridge } = useServices();
  const [uri, setUri] = useState<string>();
  useEffect(() => {
    setUri(undefined);
    if (toolsListSeq === undefined || name === undefined) return;
    let live = true;
    void bridge.call('inspector.exchanges.list', { session: sessionId, after: toolsListSeq - 1, limit: 1, full: true }).then((r) => {
      if (!live || !r.ok) return;
      const list = r.value.exchanges.find((x) => x.requestSeq === toolsListSeq);
      const tools = ((list?.response as { result?: { tools?: unknown } } | undefined)?.result?.tools ?? []) as ToolDef[];
      setUri(Array.isArray(tools) ? appResourceUri(tools.find((t) => t.name === name)) : undefined);
    });
    return () => {
      live = false;
    };
  }, [bridge, sessionId, toolsListSeq, name]);
  return uri;
}

function ToolAppRender({ exchange, sessionId, toolsListSeq }: { exchange: Exchange; sessionId: string; toolsListSeq?: number | undefined }) {
  const [shown, setShown] = useState(false);
  const params = (exchange.request as { params?: { name?: unknown; arguments?: unknown } } | undefined)?.params;
  const name = typeof params?.name === 'string' ? params.name : undefined;
  const uri = useToolUri(sessionId, toolsListSeq, name);
  const result = (exchange.response as { result?: unknown } | undefined)?.result;
  if (!uri || !name || typeof result !== 'object' || result === null) return null;
  const args = typeof params?.arguments === 'object' && params.arguments !== null ? (params.arguments as Record<string, unknown>) : {};
  return (
    <AppSection uri={uri} shown={shown} onToggle={() => setShown(!shown)}>
      <AppView server={exchange.server} tool={name} uri={uri} args={args} result={result as Record<string, unknown>} readOnly />
    </AppSection>
  );
}

function AppSection(props: { uri: string; shown: boolean; onToggle(): void; children: React.ReactNode }) {
  return (
    <section className="app-view" aria-label={`App ${props.uri}`} data-testid="app-render">
      <header className="app-view-head">
        <span className="chip">MCP App</span>
        <button type="button" className="button button-small" aria-pressed={props.shown} onClick={props.onToggle} data-testid="app-render-toggle">
          <Icon name={props.shown ? 'stop' : 'play'} /> {props.shown ? 'Hide app' : 'Render'}
        </button>
        <span className="muted small">read-only: the app may not call tools</span>
      </header>
      {props.shown && <Suspense fallback={<p className="muted small">Loading the app…</p>}>{props.children}</Suspense>}
    </section>
  );
}
