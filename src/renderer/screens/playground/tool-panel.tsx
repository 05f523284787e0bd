/**
 * One tool: its description and hints, a form generated from its input schema (or the raw JSON
 * of its arguments, side by side with the same data), Run, and the result.
 */
import { lazy, Suspense, useEffect, useState, type KeyboardEvent } from 'react';
import { ErrorMessage } from '../../components/error-message.js';
import { Icon } from '../../components/icons.js';
import { MarkdownText } from '../../components/markdown.js';
import { hasFields, SchemaForm } from '../../components/schema-form.js';
import { schemaErrors } from '../../components/schema-validator.js';
import { startRequest } from '../../app/playground-commands.js';
import { usePlayground, useServices } from '../../app/services.js';
import type { ToolDef } from '../../stores/playground-store.js';
import { appResourceUri } from './app-ui.js';
import { CallResult } from './call-result.js';

// The MCP Apps host (ext-apps' AppBridge and the MCP client it is built on) loads only when a tool has an app.
const AppView = lazy(() => import('./app-view.js').then((m) => ({ default: m.AppView })));

/** Arguments typed so far, per server and tool (kept while the page lives). */
const drafts = new Map<string, Record<string, unknown>>();

const HINTS: Array<[string, string, boolean]> = [
  ['readOnlyHint', 'read-only', true],
  ['destructiveHint', 'destructive', true],
  ['idempotentHint', 'idempotent', true],
  ['openWorldHint', 'open world', true],
];

export function ToolPanel({ server, tool, onOpenResource }: { server: string; tool: ToolDef; onOpenResource(uri: string): void }) {
  const services = useServices();
  const key = `${server}\u0000${tool.name}`;
  const [args, setArgs] = useState<Record<string, unknown>>(() => drafts.get(key) ?? {});
  const [mode, setMode] = useState<'form' | 'json'>(hasFields(tool.inputSchema) ? 'form' : 'json');
  const [text, setText] = useState(() => JSON.stringify(drafts.get(key) ?? {}, null, 2));
  const [jsonError, setJsonError] = useState<string>();
  const [callId, setCallId] = useState<string>();
  // The arguments of the call shown: an MCP App gets them as its tool input.
  const [ranArgs, setRanArgs] = useState<Record<string, unknown>>({});
  const appUri = appResourceUri(tool);
  const running = usePlayground((s) => (callId ? s.byServer[server]?.calls[callId]?.status === 'running' : false));
  // A call picked in the history: its arguments replace the form's (a new key remounts it), and a re-run runs them.
  const loaded = usePlayground((s) => s.byServer[server]?.loaded);
  const [formKey, setFormKey] = useState(0);
  const schema = tool.inputSchema ?? { type: 'object' };

  const change = (next: Record<string, unknown>): void => {
    setArgs(next);
    drafts.set(key, next);
  };
  const switchMode = (next: 'form' | 'json'): void => {
    if (next === 'json') setText(JSON.stringify(args, null, 2));
    else if (!parseText()) return;
    setMode(next);
  };
  const parseText = (): Record<string, unknown> | undefined => {
    try {
      const value = JSON.parse(text === '' ? '{}' : text) as unknown;
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('the arguments must be a JSON object');
      setJsonError(undefined);
      change(value as Record<string, unknown>);
      return value as Record<string, unknown>;
    } catch (err) {
      setJsonError((err as Error).message);
      return undefined;
    }
  };
  const run = (values: Record<string, unknown>): void => {
    const call = startRequest(services, server, 'tools/call', { name: tool.name, arguments: values }, { target: tool.name });
    setCallId(call.id);
    setRanArgs(values);
  };
  useEffect(() => {
    if (!loaded || loaded.tool !== tool.name) return;
    services.stores.playground.getState().historyLoadTaken(server);
    change(loaded.args);
    setText(JSON.stringify(loaded.args, null, 2));
    setJsonError(undefined);
    setFormKey((k) => k + 1);
    if (loaded.run) run(loaded.args);
    // Only a new load matters; the helpers are re-created every render.
  }, [loaded]);
  const runJson = (): void => {
    const value = parseText();
    if (value) run(value);
  };
  const onJsonKey = (e: KeyboardEvent): void => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      runJson();
    }
  };
  const jsonProblems = mode === 'json' && !jsonError ? safeErrors(schema, args) : [];
  const runButton = (
    <button type="submit" className="button button-primary" disabled={running} data-testid="run-tool">
      <Icon name="play" /> {running ? 'Running…' : 'Run tool'}
    </button>
  );

  return (
    <section className="pg-panel" aria-labelledby="pg-item-title" data-testid="tool-panel">
      <header className="pg-panel-head">
        <h2 id="pg-item-title">{tool.title ?? tool.name}</h2>
        {tool.title && <code className="muted">{tool.name}</code>}
        <span className="chips">
          {HINTS.filter(([k, , v]) => tool.annotations?.[k] === v).map(([k, label]) => (
            <span key={k} className={`chip${k === 'destructiveHint' ? ' chip-warn' : ''}`}>{label}</span>
          ))}
        </span>
      </header>
      {tool.description && <MarkdownText text={tool.description} />}
      <div className="segmented" role="group" aria-label="Arguments as">
        <button type="button" aria-pressed={mode === 'form'} onClick={() => switchMode('form')} data-testid="mode-form">Form</button>
        <button type="button" aria-pressed={mode === 'json'} onClick={() => switchMode('json')} data-testid="mode-json">JSON</button>
      </div>
      {mode === 'form' ? (
        hasFields(schema) ? (
          <SchemaForm key={`${key}\u0000${formKey}`} schema={schema} value={args} onChange={change} onSubmit={run} idPrefix={`tool-${tool.name.replace(/[^A-Za-z0-9_-]/g, '_')}`} testId="tool-form">
            <div className="form-actions">{runButton}</div>
          </SchemaForm>
        ) : (
          <form onSubmit={(e) => { e.preventDefault(); run({}); }}>
            <p className="muted">This tool takes no arguments.</p>
            <div className="form-actions">{runButton}</div>
          </form>
        )
      ) : (
        <form onSubmit={(e) => { e.preventDefault(); runJson(); }}>
          <div className="field">
            <label htmlFor="tool-args-json">Arguments (JSON) <span className="muted small">Ctrl+Enter runs</span></label>
            <textarea id="tool-args-json" className="input code-input" rows={Math.min(16, Math.max(5, text.split('\n').length + 1))} value={text} spellCheck={false} onChange={(e) => setText(e.target.value)} onKeyDown={onJsonKey} aria-invalid={jsonError !== undefined} data-testid="tool-args-json" />
            {jsonError && <p className="field-error">{jsonError}</p>}
            {jsonProblems.length > 0 && <p className="hint">Against the input schema: {jsonProblems.join('; ')} (sent anyway if you run it).</p>}
          </div>
          <div className="form-actions">{runButton}</div>
        </form>
      )}
      {!callId && <p className="muted small">The call goes through the hub like any client's: it shows up in Sessions, marked as a playground session.</p>}
      <CallResult server={server} callId={callId} outputSchema={tool.outputSchema} onOpenResource={onOpenResource}>
        {appUri && callId ? (result) => (
              <Suspense fallback={<p className="muted small">Loading the app…</p>}>
                <AppView key={callId} server={server} tool={tool.name} uri={appUri} args={ranArgs} result={result} />
              </Suspense>
            ) : undefined}
      </CallResult>
      {jsonError && mode === 'form' && <ErrorMessage>{jsonError}</ErrorMessage>}
    </section>
  );
}

function safeErrors(schema: object, value: unknown): string[] {
  try {
    return schemaErrors(schema, value).map((e) => e.stack);
  } catch {
    return [];
  }
}
