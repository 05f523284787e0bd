/**
 * What the server asks of the person, one request at a time, in a dialog: elicitation (a form
 * generated from the requested schema: Accept, Decline, Cancel), sampling (the messages the server
 * wants a model to answer: the person writes the reply, or rejects), roots (the directories to
 * offer). `ping` is answered at once. The dialog opens by itself only for a request a call of the
 * person's caused (it came on that call's stream); one the server made on its own waits in the
 * inbox above the playground (ask-inbox.tsx) until the person picks it. The answer's buttons sit in
 * the dialog's footer, always in view; the close button and Escape cancel (elicitation's `cancel`,
 * an error for the others) — or, for a request opened from the inbox, put it back there.
 */
import { useEffect, useRef, useState } from 'react';
import type { PlaygroundServerMessage } from '../../../shared/api/playground-contract.js';
import { ContentItem, type ContentBlock } from '../../components/content-view.js';
import { Modal } from '../../components/drawer.js';
import { ErrorMessage } from '../../components/error-message.js';
import { JsonBlock } from '../../components/json-view.js';
import { hasFields, SchemaForm } from '../../components/schema-form.js';
import { answerAsk } from '../../app/playground-commands.js';
import { usePlayground, useServers, useServices } from '../../app/services.js';
import { targetName } from './target-picker.js';

export type Answer = { result: Record<string, unknown> } | { error: { code: number; message: string } };

/** The form in the dialog's body; the footer's submit button names it. */
const FORM_ID = 'ask-form';

/** What "no" means for each request: elicitation has its own decline; the others get an error. */
export function declineAnswer(method: string): Answer {
  if (method === 'elicitation/create') return { result: { action: 'decline' } };
  if (method === 'roots/list') return { error: { code: -1, message: 'The person declined to share roots' } };
  if (method === 'sampling/createMessage') return { error: { code: -1, message: 'The person rejected the sampling request' } };
  return { error: { code: -32601, message: `Method not found: ${method}` } };
}

/** The default roots: the server's working directory when its config sets one (its project), else none. */
export function useDefaultRoots(server: string): string {
  const cwd = useServers((s) => (server.startsWith('@') ? undefined : (s.byId[server]?.config as { cwd?: unknown } | undefined)?.cwd));
  return typeof cwd === 'string' ? cwd : '';
}

export function AskDialog({ server }: { server: string }) {
  const services = useServices();
  const asks = usePlayground((s) => s.byServer[server]?.asks);
  const answering = usePlayground((s) => s.byServer[server]?.answering);
  const [error, setError] = useState<string>();
  // A ping is answered at once, wherever it is in the queue (each once: the store forgets it when answered).
  const ponged = useRef(new Set<string | number>());
  useEffect(() => {
    for (const ping of asks ?? []) {
      const pingId = ping.message.id;
      if (ping.message.method !== 'ping' || pingId === undefined || ponged.current.has(pingId)) continue;
      ponged.current.add(pingId);
      void answerAsk(services, server, pingId, { result: {} });
    }
  }, [asks, services, server]);
  const ask = asks?.find((a) => a.message.id === answering) ?? asks?.find((a) => a.relatedRequestId !== undefined && a.message.method !== 'ping');
  if (!ask || ask.message.id === undefined) return null;
  const method = ask.message.method;
  const id = ask.message.id;
  const send = async (answer: Answer): Promise<void> => {
    setError(await answerAsk(services, server, id, answer));
  };
  const name = targetName(server);
  const title = method === 'elicitation/create' ? `${name} asks you` : method === 'sampling/createMessage' ? `${name} asks your model` : method === 'roots/list' ? `${name} asks for your roots` : `${name} sent ${method}`;
  const cancel = (): void => void send(method === 'elicitation/create' ? { result: { action: 'cancel' } } : { error: { code: -1, message: 'The person dismissed the request' } });
  // Opened from the inbox: closing puts it back there, unanswered; a call's request is cancelled.
  const fromInbox = answering === id;
  const close = fromInbox ? (): void => services.stores.playground.getState().askOpened(server, undefined) : cancel;
  const no = (): void => void send(declineAnswer(method));
  const submit = (label: string, testId: string) => (
    <button type="submit" form={FORM_ID} className="button button-primary" data-testid={testId}>
      {label}
    </button>
  );
  const footer =
    method === 'elicitation/create' ? (
      <>
        {submit('Accept', 'elicitation-accept')}
        <button type="button" className="button" onClick={no} data-testid="elicitation-decline">Decline</button>
        <button type="button" className="button" onClick={cancel} data-testid="elicitation-cancel">Cancel</button>
      </>
    ) : method === 'sampling/createMessage' ? (
      <>
        {submit('Send reply', 'sampling-send')}
        <button type="button" className="button" onClick={no}>Reject</button>
      </>
    ) : method === 'roots/list' ? (
      <>
        {submit('Send roots', 'roots-send')}
        <button type="button" className="button" onClick={no} data-testid="roots-decline">Decline</button>
      </>
    ) : (
      <button type="button" className="button button-primary" onClick={no}>Answer “method not found”</button>
    );
  return (
    <Modal open onClose={close} title={title} testId="ask-dialog" footer={footer} closeLabel={fromInbox ? 'Close (answer later)' : method === 'elicitation/create' ? 'Close (cancel)' : 'Close (dismiss the request)'}>
      {method === 'elicitation/create' && <Elicitation key={String(id)} ask={ask} onAnswer={send} />}
      {method === 'sampling/createMessage' && <Sampling key={String(id)} ask={ask} onAnswer={send} />}
      {method === 'roots/list' && <Roots key={String(id)} server={server} onAnswer={send} />}
      {method !== 'elicitation/create' && method !== 'sampling/createMessage' && method !== 'roots/list' && <Other ask={ask} />}
      {error && <ErrorMessage>{error}</ErrorMessage>}
    </Modal>
  );
}

function Elicitation({ ask, onAnswer }: { ask: PlaygroundServerMessage; onAnswer(a: Answer): Promise<void> }) {
  const params = ask.message.params ?? {};
  const schema = (params.requestedSchema ?? { type: 'object', properties: {} }) as object;
  const [value, setValue] = useState<Record<string, unknown>>({});
  return (
    <div className="ask" data-testid="elicitation">
      <p className="ask-message">{String(params.message ?? 'The server asks for input.')}</p>
      {typeof params.url === 'string' ? (
        <p>
          It asks you to open <a href={params.url} target="_blank" rel="noreferrer noopener">{params.url}</a>.
        </p>
      ) : null}
      <SchemaForm schema={schema} value={value} onChange={setValue} onSubmit={(content) => void onAnswer({ result: { action: 'accept', content } })} idPrefix="elicit" testId="elicitation-form" formId={FORM_ID}>
        {!hasFields(schema) ? <p className="muted">No fields: accepting sends an empty answer.</p> : <span />}
      </SchemaForm>
    </div>
  );
}

function Sampling({ ask, onAnswer }: { ask: PlaygroundServerMessage; onAnswer(a: Answer): Promise<void> }) {
  const params = ask.message.params ?? {};
  const messages = Array.isArray(params.messages) ? (params.messages as Array<{ role?: string; content?: ContentBlock | ContentBlock[] }>) : [];
  const [reply, setReply] = useState('');
  const [model, setModel] = useState('you (Patchbay playground)');
  return (
    <form id={FORM_ID} className="ask" data-testid="sampling" onSubmit={(e) => { e.preventDefault(); void onAnswer({ result: { role: 'assistant', content: { type: 'text', text: reply }, model, stopReason: 'endTurn' } }); }}>
      {typeof params.systemPrompt === 'string' && <p className="muted small">System prompt: {params.systemPrompt}</p>}
      <div className="prompt-messages">
        {messages.map((m, i) => (
          <div key={i} className={`message message-${m.role ?? 'user'}`}>
            <span className="message-role">{m.role ?? 'user'}</span>
            {(Array.isArray(m.content) ? m.content : m.content ? [m.content] : []).map((c, j) => <ContentItem key={j} block={c} />)}
          </div>
        ))}
      </div>
      <p className="muted small">Up to {String(params.maxTokens ?? '?')} tokens. You answer as the model.</p>
      <div className="field">
        <label htmlFor="sampling-reply">Reply</label>
        <textarea id="sampling-reply" className="input" rows={4} value={reply} onChange={(e) => setReply(e.target.value)} required data-testid="sampling-reply" />
      </div>
      <div className="field">
        <label htmlFor="sampling-model">Model name to report</label>
        <input id="sampling-model" className="input" value={model} onChange={(e) => setModel(e.target.value)} />
      </div>
    </form>
  );
}

function Roots({ server, onAnswer }: { server: string; onAnswer(a: Answer): Promise<void> }) {
  const initial = useDefaultRoots(server);
  const [text, setText] = useState(initial);
  const roots = text.split('\n').map((l) => l.trim()).filter(Boolean).map((uri) => ({ uri: uri.includes('://') ? uri : `file://${uri}` }));
  return (
    <form id={FORM_ID} className="ask" data-testid="roots" onSubmit={(e) => { e.preventDefault(); void onAnswer({ result: { roots } }); }}>
      <p className="muted">Roots are the folders a server may work in: its file tools and searches stay inside them. Offer only what it needs.</p>
      <div className="field">
        <label htmlFor="roots-list">Directories the server may use, one per line</label>
        <textarea id="roots-list" className="input code-input" rows={4} value={text} onChange={(e) => setText(e.target.value)} placeholder="/home/you/project" data-testid="roots-list" />
        <p className="hint">{roots.length === 0 ? 'Empty: the server gets none.' : `${roots.length} root${roots.length === 1 ? '' : 's'} will be sent.`}</p>
      </div>
    </form>
  );
}

function Other({ ask }: { ask: PlaygroundServerMessage }) {
  return (
    <div className="ask">
      <p>The playground does not know this request; answer it with an error, or read it first.</p>
      <JsonBlock value={ask.message} />
    </div>
  );
}
