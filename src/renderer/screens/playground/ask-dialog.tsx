/**
 * What the server asks of the person, one request at a time, in a dialog they must answer:
 * elicitation (a form generated from the requested schema: Accept, Decline, Cancel), sampling
 * (the messages the server wants a model to answer: the person writes the reply, or rejects),
 * roots (the directories to offer). `ping` is answered at once. Closing the dialog cancels.
 */
import { useEffect, useState } from 'react';
import type { PlaygroundServerMessage } from '../../../shared/api/playground-contract.js';
import { ContentItem, type ContentBlock } from '../../components/content-view.js';
import { Modal } from '../../components/drawer.js';
import { ErrorMessage } from '../../components/error-message.js';
import { JsonBlock } from '../../components/json-view.js';
import { hasFields, SchemaForm } from '../../components/schema-form.js';
import { answerAsk } from '../../app/playground-commands.js';
import { usePlayground, useServices } from '../../app/services.js';

type Answer = { result: Record<string, unknown> } | { error: { code: number; message: string } };

export function AskDialog({ server }: { server: string }) {
  const services = useServices();
  const ask = usePlayground((s) => s.byServer[server]?.asks[0]);
  const [error, setError] = useState<string>();
  const method = ask?.message.method;
  useEffect(() => {
    if (ask && method === 'ping') void answerAsk(services, server, ask.message.id!, { result: {} });
  }, [ask, method, services, server]);
  if (!ask || method === 'ping' || ask.message.id === undefined) return null;
  const id = ask.message.id;
  const send = async (answer: Answer): Promise<void> => {
    setError(await answerAsk(services, server, id, answer));
  };
  const title = method === 'elicitation/create' ? `${server} asks you` : method === 'sampling/createMessage' ? `${server} asks your model` : method === 'roots/list' ? `${server} asks for your roots` : `${server} sent ${method}`;
  const cancel = (): void => void send(method === 'elicitation/create' ? { result: { action: 'cancel' } } : { error: { code: -1, message: 'The person dismissed the request' } });
  return (
    <Modal open onClose={cancel} title={title} testId="ask-dialog">
      {method === 'elicitation/create' && <Elicitation ask={ask} onAnswer={send} />}
      {method === 'sampling/createMessage' && <Sampling ask={ask} onAnswer={send} />}
      {method === 'roots/list' && <Roots onAnswer={send} />}
      {method !== 'elicitation/create' && method !== 'sampling/createMessage' && method !== 'roots/list' && <Other ask={ask} onAnswer={send} />}
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
      <SchemaForm schema={schema} value={value} onChange={setValue} onSubmit={(content) => void onAnswer({ result: { action: 'accept', content } })} idPrefix="elicit" testId="elicitation-form">
        {!hasFields(schema) && <p className="muted">No fields: accepting sends an empty answer.</p>}
        <div className="form-actions">
          <button type="submit" className="button button-primary" data-testid="elicitation-accept">Accept</button>
          <button type="button" className="button" onClick={() => void onAnswer({ result: { action: 'decline' } })} data-testid="elicitation-decline">Decline</button>
          <button type="button" className="button" onClick={() => void onAnswer({ result: { action: 'cancel' } })}>Cancel</button>
        </div>
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
    <form className="ask" data-testid="sampling" onSubmit={(e) => { e.preventDefault(); void onAnswer({ result: { role: 'assistant', content: { type: 'text', text: reply }, model, stopReason: 'endTurn' } }); }}>
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
      <div className="form-actions">
        <button type="submit" className="button button-primary" data-testid="sampling-send">Send reply</button>
        <button type="button" className="button" onClick={() => void onAnswer({ error: { code: -1, message: 'The person rejected the sampling request' } })}>Reject</button>
      </div>
    </form>
  );
}

function Roots({ onAnswer }: { onAnswer(a: Answer): Promise<void> }) {
  const [text, setText] = useState('');
  const roots = text.split('\n').map((l) => l.trim()).filter(Boolean).map((uri) => ({ uri: uri.includes('://') ? uri : `file://${uri}` }));
  return (
    <form className="ask" onSubmit={(e) => { e.preventDefault(); void onAnswer({ result: { roots } }); }}>
      <div className="field">
        <label htmlFor="roots-list">Directories the server may use, one per line</label>
        <textarea id="roots-list" className="input code-input" rows={4} value={text} onChange={(e) => setText(e.target.value)} placeholder="/home/you/project" />
        <p className="hint">Leave empty to offer none.</p>
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary">Send {roots.length} root{roots.length === 1 ? '' : 's'}</button>
      </div>
    </form>
  );
}

function Other({ ask, onAnswer }: { ask: PlaygroundServerMessage; onAnswer(a: Answer): Promise<void> }) {
  return (
    <div className="ask">
      <p>The playground does not know this request; answer it with an error, or read it first.</p>
      <JsonBlock value={ask.message} />
      <div className="form-actions">
        <button type="button" className="button button-primary" onClick={() => void onAnswer({ error: { code: -32601, message: `Method not found: ${ask.message.method}` } })}>
          Answer “method not found”
        </button>
      </div>
    </div>
  );
}
