/**
 * An MCP App (SEP-1865) shown under a tool's result: the playground as its host. The `ui://`
 * resource is read through the playground's session; its HTML runs in an
 * `<iframe sandbox="allow-scripts">` (an opaque origin: no access to this page, its cookie or
 * `/api`) loaded from the engine's sandbox page, whose CSP header is built from the resource's
 * declared domains (src/main/core/ui/app-sandbox.ts; default: no network). ext-apps' AppBridge
 * speaks the protocol (ui/initialize, tool input and result, size changes, …) over AppChannel,
 * which drops what is not from this frame, malformed or over the rate limit. The app's tool
 * calls go through the hub marked as the app's (the inspector shows them); only its own
 * server's tools (app-ui.ts); links open after the person confirms; Stop app removes it.
 */
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import { useEffect, useRef, useState } from 'react';
import { ErrorMessage } from '../../components/error-message.js';
import { Icon } from '../../components/icons.js';
import { usePrefersDark } from '../../components/use-prefers-dark.js';
import { request } from '../../app/playground-commands.js';
import { usePlayground, useServices, type Services } from '../../app/services.js';
import type { ToolDef } from '../../stores/playground-store.js';
import { AppChannel } from './app-channel.js';
import { appSandboxUrl } from './app-sandbox-url.js';
import { appCallable, appResourceOf, type AppResource } from './app-ui.js';

/** The frame's height bounds (px): a size change outside them is clamped. */
const MIN_HEIGHT = 60;
const MAX_HEIGHT = 1200;
const NO_TOOLS: ToolDef[] = [];

export interface AppViewProps {
  server: string;
  /** The tool whose result this is (as the playground lists it), its `ui://` resource and the call. */
  tool: string;
  uri: string;
  /** The call's arguments and result, sent to the app once it is initialized (none: the inspector's Render). */
  args?: Record<string, unknown> | undefined;
  result?: Record<string, unknown> | undefined;
  /** Read-only (the inspector's Render): the app's tool calls are refused. */
  readOnly?: boolean;
}

type Load = { state: 'loading' } | { state: 'ready'; app: AppResource } | { state: 'failed'; message: string };

export function AppView(props: AppViewProps) {
  const services = useServices();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [stopped, setStopped] = useState<string>();
  const [run, setRun] = useState(0);
  useEffect(() => {
    let live = true;
    setLoad({ state: 'loading' });
    void request(services, props.server, 'resources/read', { uri: props.uri }, { record: false }).then((outcome) => {
      if (!live) return;
      if (outcome.status !== 'ok') return setLoad({ state: 'failed', message: `Could not read ${props.uri}: ${outcome.error?.message ?? outcome.status}` });
      const app = appResourceOf(outcome.result, props.uri);
      setLoad(app.ok ? { state: 'ready', app: app.value } : { state: 'failed', message: app.message });
    });
    return () => {
      live = false;
    };
  }, [props.server, props.uri, run]);

  return (
    <section className="app-view" aria-label={`App ${props.uri}`} data-testid="app-view">
      <header className="app-view-head">
        <span className="chip">MCP App</span>
        <code className="muted small">{props.uri}</code>
        <span className="spacer" />
        {stopped === undefined ? (
          <button type="button" className="button button-small" onClick={() => setStopped('Stopped.')} data-testid="app-stop">
            <Icon name="stop" /> Stop app
          </button>
        ) : (
          <button type="button" className="button button-small" onClick={() => { setStopped(undefined); setRun((n) => n + 1); }} data-testid="app-restart">
            <Icon name="play" /> Run again
          </button>
        )}
      </header>
      {stopped !== undefined ? (
        <p className="muted small" role="status" data-testid="app-stopped">The app is stopped. {stopped}</p>
      ) : load.state === 'loading' ? (
        <p className="muted small">Loading the app…</p>
      ) : load.state === 'failed' ? (
        <ErrorMessage>{load.message}</ErrorMessage>
      ) : (
        <AppFrame key={run} {...props} app={load.app} services={services} onStop={(reason) => setStopped(reason)} />
      )}
    </section>
  );
}

export function AppFrame(props: AppViewProps & { app: AppResource; services: Services; onStop(reason: string): void }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(160);
  const [link, setLink] = useState<{ url: string; answer(open: boolean): void }>();
  const [notes, setNotes] = useState<string[]>([]);
  const [initialized, setInitialized] = useState(false);
  const dark = usePrefersDark();
  const tools = usePlayground((s) => s.byServer[props.server]?.catalog.tools ?? NO_TOOLS);
  const toolsRef = useRef(tools);
  toolsRef.current = tools;
  const note = (text: string): void => setNotes((n) => [...n.slice(-4), text]);

  useEffect(() => {
    const { services, server, uri } = props;
    const channel = new AppChannel(() => frame.current?.contentWindow ?? null, {
      sandboxReady: () => frame.current?.contentWindow?.postMessage({ type: 'patchbay/app-html', html: props.app.html }, '*'),
      abuse: (reason) => props.onStop(`Stopped by Patchbay: ${reason}.`),
    });
    const bridge = new AppBridge(
      null,
      { name: 'patchbay-playground', version: '1' },
      { openLinks: {}, serverTools: {}, logging: {}, message: { text: {} }, updateModelContext: { text: {} } },
      { hostContext: { theme: dark ? 'dark' : 'light', displayMode: 'inline', availableDisplayModes: ['inline'], platform: 'web' } },
    );
    bridge.oninitialized = () => {
      setInitialized(true);
      if (props.args !== undefined) void bridge.sendToolInput({ arguments: props.args });
      if (props.result !== undefined) void bridge.sendToolResult(props.result as Parameters<AppBridge['sendToolResult']>[0]);
    };
    bridge.oncalltool = async (params) => {
      if (props.readOnly) throw new Error('This app is rendered read-only (from the inspector): it may not call tools');
      const tool = appCallable(toolsRef.current, params.name, uri, server.startsWith('@'));
      if (!tool) {
        note(`Refused the app's call of '${params.name}': not a tool of its own server.`);
        throw new Error(`'${params.name}' is not a tool this app's server offers`);
      }
      const outcome = await request(services, server, 'tools/call', { name: params.name, arguments: params.arguments ?? {} }, { record: false, origin: 'app' });
      if (outcome.status !== 'ok') throw new Error(outcome.error?.message ?? outcome.status);
      return outcome.result as Awaited<ReturnType<NonNullable<AppBridge['oncalltool']>>>;
    };
    bridge.onsizechange = ({ height: h }) => {
      if (typeof h === 'number' && Number.isFinite(h)) setHeight(Math.round(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, h))));
    };
    bridge.onopenlink = ({ url }) =>
      new Promise((resolve) => {
        let safe: URL | undefined;
        try {
          safe = new URL(url);
        } catch {
          safe = undefined;
        }
        if (!safe || (safe.protocol !== 'https:' && safe.protocol !== 'http:')) return resolve({ isError: true });
        setLink({
          url: safe.href,
          answer: (open) => {
            setLink(undefined);
            if (open) window.open(safe.href, '_blank', 'noopener,noreferrer');
            resolve(open ? {} : { isError: true });
          },
        });
      });
    bridge.onmessage = async (params) => {
      note(`The app sent a message for the model (${params.content.length} part${params.content.length === 1 ? '' : 's'}); the playground has no model to give it to.`);
      return {};
    };
    bridge.onupdatemodelcontext = async () => {
      note('The app updated the model context.');
      return {};
    };
    bridge.onloggingmessage = ({ level, data }) => note(`log ${level}: ${typeof data === 'string' ? data : JSON.stringify(data)}`.slice(0, 300));
    bridge.onrequestteardown = () => props.onStop('The app asked to be closed.');
    void bridge.connect(channel);
    return () => {
      void bridge.close();
    };
  }, []);

  return (
    <div className={`app-frame${props.app.prefersBorder === false ? '' : ' app-frame-border'}`} data-app-state={initialized ? 'initialized' : 'loading'} data-testid="app-host">
      {link && (
        <div className="app-link-ask" role="alertdialog" aria-label="The app wants to open a link" data-testid="app-link-ask">
          <p>
            The app wants to open <code>{link.url}</code>
          </p>
          <button type="button" className="button button-small button-primary" onClick={() => link.answer(true)}>Open link</button>
          <button type="button" className="button button-small" onClick={() => link.answer(false)}>Don’t open</button>
        </div>
      )}
      <iframe
        ref={frame}
        title={`App: ${props.tool}`}
        // allow-scripts only: no allow-same-origin (an opaque origin), no top navigation, no popups, no forms.
        sandbox="allow-scripts"
        src={appSandboxUrl(props.app.csp)}
        style={{ height }}
        data-testid="app-frame"
      />
      {notes.length > 0 && (
        <ul className="app-notes muted small" aria-label="What the app did" data-testid="app-notes">
          {notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
