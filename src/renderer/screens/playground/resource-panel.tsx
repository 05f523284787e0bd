/**
 * A resource: read it, subscribe to it (it is read again when the server says it changed); or a
 * resource template: fill its variables (with the server's completions), see the URI, read it.
 */
import { useEffect, useRef, useState } from 'react';
import { ContentItem } from '../../components/content-view.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Icon } from '../../components/icons.js';
import { MarkdownText } from '../../components/markdown.js';
import { setSubscribed, startRequest } from '../../app/playground-commands.js';
import { usePlayground, useServices } from '../../app/services.js';
import type { ResourceDef, TemplateDef } from '../../stores/playground-store.js';
import { CallResult } from './call-result.js';
import { CompletionInput } from './completion-input.js';

function Contents({ result }: { result: Record<string, unknown> }) {
  const contents = Array.isArray(result.contents) ? (result.contents as Array<{ uri?: string; mimeType?: string; text?: string; blob?: string }>) : [];
  return (
    <div className="content-list">
      {contents.map((c, i) => (
        <ContentItem key={i} block={{ type: 'resource', resource: c }} />
      ))}
    </div>
  );
}

export function ResourcePanel({ server, resource }: { server: string; resource: ResourceDef }) {
  const services = useServices();
  const [callId, setCallId] = useState<string>();
  const [error, setError] = useState<string>();
  const subscribed = usePlayground((s) => s.byServer[server]?.subscriptions.includes(resource.uri) ?? false);
  const canSubscribe = usePlayground((s) => Boolean((s.byServer[server]?.opened?.capabilities.resources as { subscribe?: boolean } | undefined)?.subscribe));
  const updates = usePlayground((s) => s.byServer[server]?.log.filter((l) => l.method === 'notifications/resources/updated' && l.params?.uri === resource.uri) ?? []);
  const lastUpdate = updates[updates.length - 1];
  const read = (): void => setCallId(startRequest(services, server, 'resources/read', { uri: resource.uri }, { target: resource.uri }).id);
  const lastN = lastUpdate?.n;
  const seen = useRef(lastN);
  useEffect(() => {
    // The server said it changed: read it again (that is what subscribing is for).
    if (subscribed && lastN !== undefined && lastN !== seen.current) read();
    seen.current = lastN;
  }, [lastN, subscribed]);
  return (
    <section className="pg-panel" aria-labelledby="pg-item-title" data-testid="resource-panel">
      <header className="pg-panel-head">
        <h2 id="pg-item-title">{resource.title ?? resource.name ?? resource.uri}</h2>
        {resource.mimeType && <span className="chip">{resource.mimeType}</span>}
      </header>
      <p>
        <code className="uri">{resource.uri}</code>
      </p>
      {resource.description && <MarkdownText text={resource.description} />}
      <div className="form-actions">
        <button type="button" className="button button-primary" onClick={read} data-testid="read-resource">
          <Icon name="play" /> Read
        </button>
        {canSubscribe && (
          <button type="button" className="button" aria-pressed={subscribed} onClick={() => void setSubscribed(services, server, resource.uri, !subscribed).then(setError)} data-testid="subscribe-resource">
            {subscribed ? 'Unsubscribe' : 'Subscribe'}
          </button>
        )}
        {subscribed && <span className="muted small" aria-live="polite">{lastUpdate ? `Updated ${new Date(lastUpdate.time).toLocaleTimeString()} (${updates.length}×), read again` : 'Subscribed: changes are read again as they come'}</span>}
      </div>
      {error && <ErrorMessage>{error}</ErrorMessage>}
      <CallResult server={server} callId={callId}>
        {(result) => <Contents result={result} />}
      </CallResult>
    </section>
  );
}

/** Variable names of a URI template (`{name}`, `{+name}`, `{?a,b}` …). */
export function templateVariables(template: string): string[] {
  const out: string[] = [];
  for (const m of template.matchAll(/\{([+#./;?&]?)([^}]+)\}/g)) for (const name of m[2]!.split(',')) out.push(name.replace(/\*$|:\d+$/, ''));
  return [...new Set(out)];
}

/** A URI template with its variables filled in (RFC 6570 level 1–3, as servers use them). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([+#./;?&]?)([^}]+)\}/g, (_m, op: string, names: string) => {
    const parts = names.split(',').map((n) => n.replace(/\*$|:\d+$/, ''));
    const enc = (v: string): string => (op === '+' || op === '#' ? encodeURI(v) : encodeURIComponent(v));
    const filled = parts.filter((n) => (values[n] ?? '') !== '');
    if (op === '?' || op === '&') return filled.length ? (op + filled.map((n) => `${n}=${enc(values[n]!)}`).join('&')) : '';
    const joined = parts.map((n) => enc(values[n] ?? '')).join(',');
    return op === '/' || op === '.' || op === '#' ? (filled.length ? op + joined : '') : joined;
  });
}

export function TemplatePanel({ server, template }: { server: string; template: TemplateDef }) {
  const services = useServices();
  const [values, setValues] = useState<Record<string, string>>({});
  const [callId, setCallId] = useState<string>();
  const names = templateVariables(template.uriTemplate);
  const uri = expandTemplate(template.uriTemplate, values);
  const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
  return (
    <section className="pg-panel" aria-labelledby="pg-item-title" data-testid="template-panel">
      <header className="pg-panel-head">
        <h2 id="pg-item-title">{template.title ?? template.name ?? template.uriTemplate}</h2>
        <span className="chip">template</span>
      </header>
      <p>
        <code className="uri">{template.uriTemplate}</code>
      </p>
      {template.description && <MarkdownText text={template.description} />}
      <form onSubmit={(e) => { e.preventDefault(); setCallId(startRequest(services, server, 'resources/read', { uri }, { target: uri }).id); }}>
        {names.map((n) => (
          <CompletionInput
            key={n}
            server={server}
            id={`template-var-${n}`}
            label={n}
            name={n}
            value={values[n] ?? ''}
            onChange={(v) => setValues((s) => ({ ...s, [n]: v }))}
            completionRef={{ type: 'ref/resource', uri: template.uriTemplate }}
            context={filled}
            testId={`template-var-${n}`}
          />
        ))}
        <p className="small">
          Reads <code className="uri" data-testid="template-uri">{uri}</code>
        </p>
        <div className="form-actions">
          <button type="submit" className="button button-primary" data-testid="read-template">
            <Icon name="play" /> Read
          </button>
        </div>
      </form>
      <CallResult server={server} callId={callId}>
        {(result) => <Contents result={result} />}
      </CallResult>
    </section>
  );
}
