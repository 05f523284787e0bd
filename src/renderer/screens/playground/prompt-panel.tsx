/** One prompt: its arguments (with the server's completions as you type), Get, and the messages it returns. */
import { useState } from 'react';
import { ContentItem, type ContentBlock } from '../../components/content-view.js';
import { Icon } from '../../components/icons.js';
import { MarkdownText } from '../../components/markdown.js';
import { startRequest } from '../../app/playground-commands.js';
import { usePlayground, useServices } from '../../app/services.js';
import type { PromptDef } from '../../stores/playground-store.js';
import { CallResult } from './call-result.js';
import { CompletionInput } from './completion-input.js';

export function PromptPanel({ server, prompt }: { server: string; prompt: PromptDef }) {
  const services = useServices();
  const [values, setValues] = useState<Record<string, string>>({});
  const [callId, setCallId] = useState<string>();
  const running = usePlayground((s) => (callId ? s.byServer[server]?.calls[callId]?.status === 'running' : false));
  const args = prompt.arguments ?? [];
  const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
  const get = (): void => setCallId(startRequest(services, server, 'prompts/get', { name: prompt.name, arguments: filled }, { target: prompt.name }).id);
  return (
    <section className="pg-panel" aria-labelledby="pg-item-title" data-testid="prompt-panel">
      <header className="pg-panel-head">
        <h2 id="pg-item-title">{prompt.title ?? prompt.name}</h2>
        {prompt.title && <code className="muted">{prompt.name}</code>}
      </header>
      {prompt.description && <MarkdownText text={prompt.description} />}
      <form onSubmit={(e) => { e.preventDefault(); get(); }}>
        {args.length === 0 && <p className="muted">This prompt takes no arguments.</p>}
        {args.map((a) => (
          <CompletionInput
            key={a.name}
            server={server}
            id={`prompt-arg-${a.name}`}
            label={a.name}
            name={a.name}
            required={a.required}
            description={a.description}
            value={values[a.name] ?? ''}
            onChange={(v) => setValues((s) => ({ ...s, [a.name]: v }))}
            completionRef={{ type: 'ref/prompt', name: prompt.name }}
            context={filled}
            testId={`prompt-arg-${a.name}`}
          />
        ))}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={running} data-testid="get-prompt">
            <Icon name="play" /> {running ? 'Getting…' : 'Get prompt'}
          </button>
        </div>
      </form>
      <CallResult server={server} callId={callId}>
        {(result) => <PromptMessages result={result} />}
      </CallResult>
    </section>
  );
}

function PromptMessages({ result }: { result: Record<string, unknown> }) {
  const messages = Array.isArray(result.messages) ? (result.messages as Array<{ role?: string; content?: ContentBlock }>) : [];
  return (
    <div className="prompt-messages">
      {typeof result.description === 'string' && <p className="muted">{result.description}</p>}
      {messages.map((m, i) => (
        <div key={i} className={`message message-${m.role ?? 'user'}`}>
          <span className="message-role">{m.role ?? 'user'}</span>
          {m.content && <ContentItem block={m.content} />}
        </div>
      ))}
    </div>
  );
}
