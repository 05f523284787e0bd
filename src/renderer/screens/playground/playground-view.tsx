/**
 * A server's or a profile's playground: the person is the MCP client. What the server offers on
 * the left (tools, resources and templates, prompts; filterable; for a profile, its curated and
 * prefixed lists), the chosen one on the right with its form and result, the server's own
 * messages below, and a dialog whenever the server asks something. Every call goes through the
 * hub and is captured as a playground session. `server` is the target: a server id, or `@name`.
 */
import { Tab, TabList, TabPanel, TabProvider } from '@ariakit/react';
import { useEffect, useMemo, useState } from 'react';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Icon } from '../../components/icons.js';
import { MarkdownText } from '../../components/markdown.js';
import { openPlayground } from '../../app/playground-commands.js';
import { href, navigate } from '../../app/router.js';
import { usePlayground, useServices } from '../../app/services.js';
import type { Catalog } from '../../stores/playground-store.js';
import { ActivityLog } from './activity-log.js';
import { AskDialog } from './ask-dialog.js';
import { AskInbox } from './ask-inbox.js';
import { HistoryPanel } from './history-panel.js';
import { PromptPanel } from './prompt-panel.js';
import { ResourcePanel, TemplatePanel } from './resource-panel.js';
import { playgroundPath, TargetPicker, targetName } from './target-picker.js';
import { ToolPanel } from './tool-panel.js';

type Kind = 'tool' | 'resource' | 'template' | 'prompt';
type TabId = 'tools' | 'resources' | 'prompts';
const TAB_OF: Record<Kind, TabId> = { tool: 'tools', resource: 'resources', template: 'resources', prompt: 'prompts' };

function parseItem(item: string | undefined): { kind: Kind; name: string } | undefined {
  const m = /^(tool|resource|template|prompt):(.+)$/s.exec(item ?? '');
  return m ? { kind: m[1] as Kind, name: m[2]! } : undefined;
}

export function PlaygroundView({ server, item }: { server: string; item?: string | undefined }) {
  const services = useServices();
  const pg = usePlayground((s) => s.byServer[server]);
  useEffect(() => void openPlayground(services, server), [services, server]);
  const selected = parseItem(item);
  const [tab, setTab] = useState<TabId>(selected ? TAB_OF[selected.kind] : 'tools');
  const selectedKind = selected?.kind;
  useEffect(() => {
    if (selectedKind) setTab(TAB_OF[selectedKind]);
  }, [selectedKind]);
  const [filter, setFilter] = useState('');

  if (!pg || pg.state === 'opening') {
    return (
      <div className="playground" data-testid="playground">
        <p className="muted pg-connecting"><span className="spinner" aria-hidden="true" /> Opening a session on {targetName(server)} through the hub…</p>
      </div>
    );
  }
  if (pg.state === 'failed' || pg.state === 'closed') {
    return (
      <div className="playground" data-testid="playground">
        <div className="pg-status">
          <TargetPicker target={server} />
        </div>
        <ErrorMessage testId="playground-error">
          {pg.state === 'failed' ? `The playground could not start a session: ${pg.error ?? ''}` : `The playground session ended: ${pg.error ?? ''}`}
          <p>
            <button type="button" className="button" onClick={() => void openPlayground(services, server, true)} data-testid="playground-reconnect">
              {pg.state === 'failed' ? 'Try again' : 'Reconnect'}
            </button>
          </p>
        </ErrorMessage>
      </div>
    );
  }
  const opened = pg.opened!;
  const open = (kind: Kind, name: string): void => navigate(...playgroundPath(server), `${kind}:${name}`);
  return (
    <div className="playground" data-testid="playground">
      <div className="pg-status">
        <TargetPicker target={server} />
        <span className="badge badge-running"><span className="dot" aria-hidden="true" />connected</span>
        <span>
          {opened.serverInfo?.title ?? opened.serverInfo?.name ?? server}
          {opened.serverInfo?.version ? <span className="muted"> {opened.serverInfo.version}</span> : null}
        </span>
        {opened.protocolVersion && <span className="muted small">protocol {opened.protocolVersion}</span>}
        <span className="spacer" />
        {opened.inspectorSession && (
          <a className="button button-small" href={href('sessions', opened.inspectorSession)} data-testid="playground-session-link">
            <Icon name="sessions" /> This session in the inspector
          </a>
        )}
      </div>
      <AskInbox server={server} />
      <div className="pg-body">
        <aside className="pg-catalog" aria-label={`What ${targetName(server)} offers`}>
          <TabProvider selectedId={tab} setSelectedId={(id) => id && setTab(id as TabId)}>
            <TabList className="tabs tabs-compact" aria-label="Kinds">
              <Tab id="tools" className="tab" data-testid="tab-tools">Tools <Count list={pg.catalog.tools} /></Tab>
              <Tab id="resources" className="tab" data-testid="tab-resources">Resources <Count list={pg.catalog.resources} extra={pg.catalog.templates} /></Tab>
              <Tab id="prompts" className="tab" data-testid="tab-prompts">Prompts <Count list={pg.catalog.prompts} /></Tab>
            </TabList>
            <div className="pg-filter">
              <label htmlFor="pg-filter" className="visually-hidden">Filter by name</label>
              <input id="pg-filter" className="input" type="search" placeholder="Filter…" value={filter} onChange={(e) => setFilter(e.target.value)} data-shortcut="search" />
            </div>
            <TabPanel tabId="tools" className="pg-list-panel">
              <ItemList catalog={pg.catalog} part="tools" filter={filter} server={server} selected={selected} />
            </TabPanel>
            <TabPanel tabId="resources" className="pg-list-panel">
              <ItemList catalog={pg.catalog} part="resources" filter={filter} server={server} selected={selected} />
              <ItemList catalog={pg.catalog} part="templates" filter={filter} server={server} selected={selected} />
            </TabPanel>
            <TabPanel tabId="prompts" className="pg-list-panel">
              <ItemList catalog={pg.catalog} part="prompts" filter={filter} server={server} selected={selected} />
            </TabPanel>
          </TabProvider>
        </aside>
        <div className="pg-main">
          <Selected server={server} catalog={pg.catalog} selected={selected} instructions={opened.instructions} onOpenResource={(uri) => open('resource', uri)} />
        </div>
      </div>
      <HistoryPanel server={server} />
      <ActivityLog server={server} />
      <AskDialog server={server} />
    </div>
  );
}

function Count({ list, extra }: { list?: unknown[] | undefined; extra?: unknown[] | undefined }) {
  if (!list) return <span className="count">…</span>;
  return <span className="count">{list.length + (extra?.length ?? 0)}</span>;
}

function ItemList({ catalog, part, filter, server, selected }: { catalog: Catalog; part: keyof Omit<Catalog, 'errors'>; filter: string; server: string; selected: { kind: Kind; name: string } | undefined }) {
  const kind: Kind = part === 'tools' ? 'tool' : part === 'resources' ? 'resource' : part === 'templates' ? 'template' : 'prompt';
  const items = useMemo(() => {
    const list = (catalog[part] ?? []) as Array<{ name?: string; uri?: string; uriTemplate?: string; title?: string; description?: string }>;
    const q = filter.trim().toLowerCase();
    // A profile titles a prefixed tool or prompt with its member's own name (`echo` for
    // `alpha__echo` and `beta__echo`): list the names its clients call instead.
    const byName = server.startsWith('@') && (part === 'tools' || part === 'prompts');
    return list
      .map((x) => ({ key: x.uriTemplate ?? x.uri ?? x.name ?? '', label: (byName ? x.name : x.title) ?? x.name ?? x.uri ?? x.uriTemplate ?? '', sub: part === 'tools' || part === 'prompts' ? x.description : (x.uriTemplate ?? x.uri) }))
      .filter((x) => q === '' || `${x.key} ${x.label} ${x.sub ?? ''}`.toLowerCase().includes(q));
  }, [catalog, part, filter, server]);
  const error = catalog.errors[part];
  if (error) return <ErrorMessage>Could not list {part}: {error}</ErrorMessage>;
  if (!catalog[part]) return <p className="muted small pg-list-note">Loading {part}…</p>;
  if (catalog[part]!.length === 0) return part === 'templates' ? null : <p className="muted small pg-list-note">This {server.startsWith('@') ? 'profile' : 'server'} offers no {part}.</p>;
  return (
    <>
      {part === 'templates' && <h3 className="pg-list-heading">Templates</h3>}
      {items.length === 0 && <p className="muted small pg-list-note">Nothing matches “{filter}”.</p>}
      <ul className="pg-list" data-testid={`pg-list-${part}`}>
        {items.map((x) => {
          const current = selected?.kind === kind && selected.name === x.key;
          return (
            <li key={x.key}>
              <a href={href(...playgroundPath(server), `${kind}:${x.key}`)} aria-current={current ? 'true' : undefined} className="pg-item" data-testid={`pg-item-${x.key}`}>
                <span className="pg-item-name">{x.label}</span>
                {x.sub && <span className="pg-item-sub">{x.sub.split('\n')[0]}</span>}
              </a>
            </li>
          );
        })}
      </ul>
    </>
  );
}

function Selected({ server, catalog, selected, instructions, onOpenResource }: { server: string; catalog: Catalog; selected: { kind: Kind; name: string } | undefined; instructions: string | undefined; onOpenResource(uri: string): void }) {
  if (selected?.kind === 'tool') {
    const tool = catalog.tools?.find((t) => t.name === selected.name);
    if (tool) return <ToolPanel key={tool.name} server={server} tool={tool} onOpenResource={onOpenResource} />;
  }
  if (selected?.kind === 'prompt') {
    const prompt = catalog.prompts?.find((p) => p.name === selected.name);
    if (prompt) return <PromptPanel key={prompt.name} server={server} prompt={prompt} />;
  }
  if (selected?.kind === 'resource') {
    const resource = catalog.resources?.find((r) => r.uri === selected.name) ?? { uri: selected.name };
    return <ResourcePanel key={resource.uri} server={server} resource={resource} />;
  }
  if (selected?.kind === 'template') {
    const template = catalog.templates?.find((t) => t.uriTemplate === selected.name);
    if (template) return <TemplatePanel key={template.uriTemplate} server={server} template={template} />;
  }
  const loading = selected && (catalog.tools === undefined || catalog.prompts === undefined || catalog.templates === undefined);
  return (
    <EmptyState title={loading ? 'Loading…' : selected ? `No ${selected.kind} named ${selected.name}` : 'Pick something to try'} testId="pg-empty">
      <p>Choose a tool, resource or prompt on the left: its form is generated from what the server declares, and the result is shown as it comes back.</p>
      {instructions && (
        <>
          <h3>What the server says about itself</h3>
          <MarkdownText text={instructions} />
        </>
      )}
    </EmptyState>
  );
}
