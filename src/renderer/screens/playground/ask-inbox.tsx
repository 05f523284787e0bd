/**
 * Requests the server made on its own — outside any call of the person's (server-everything asks
 * for roots as soon as a session starts) — wait here, above the playground, instead of popping a
 * dialog nobody asked for. Each says what it is and that nothing the person did caused it;
 * Answer opens its form in the dialog (ask-dialog.tsx), Decline answers no at once. The page
 * stays usable meanwhile; the server waits (or gives up on its own timeout).
 */
import type { PlaygroundServerMessage } from '../../../shared/api/playground-contract.js';
import { answerAsk } from '../../app/playground-commands.js';
import { usePlayground, useServices } from '../../app/services.js';
import { declineAnswer, useDefaultRoots } from './ask-dialog.js';
import { targetName } from './target-picker.js';

function explain(ask: PlaygroundServerMessage, name: string, roots: string): string {
  switch (ask.message.method) {
    case 'roots/list':
      return `${name} asks for your roots: the folders it may work in (its file tools stay inside them). It asked on its own, not because of a call of yours. Answer to offer ${roots === '' ? 'folders (none by default)' : `folders (by default its working directory, ${roots})`}, or decline: it carries on without them.`;
    case 'elicitation/create':
      return `${name} asks you for input on its own, not because of a call of yours: “${String(ask.message.params?.message ?? '')}”.`;
    case 'sampling/createMessage':
      return `${name} asks your model to write a reply, on its own, not because of a call of yours.`;
    default:
      return `${name} sent a request the playground does not know: ${ask.message.method}.`;
  }
}

export function AskInbox({ server }: { server: string }) {
  const services = useServices();
  const asks = usePlayground((s) => s.byServer[server]?.asks);
  const answering = usePlayground((s) => s.byServer[server]?.answering);
  const roots = useDefaultRoots(server);
  const waiting = (asks ?? []).filter((a) => a.relatedRequestId === undefined && a.message.method !== 'ping' && a.message.id !== undefined && a.message.id !== answering);
  if (waiting.length === 0) return null;
  const name = targetName(server);
  return (
    <section className="ask-inbox" aria-labelledby="ask-inbox-title" data-testid="ask-inbox">
      <h2 id="ask-inbox-title" className="ask-inbox-title">
        Waiting for your answer <span className="count">{waiting.length}</span>
      </h2>
      <ul className="ask-inbox-list">
        {waiting.map((ask) => {
          const id = ask.message.id!;
          return (
            <li key={String(id)} className="ask-inbox-item" data-testid="ask-inbox-item" data-method={ask.message.method}>
              <p>{explain(ask, name, roots)}</p>
              <span className="ask-inbox-actions">
                <button type="button" className="button button-small button-primary" onClick={() => services.stores.playground.getState().askOpened(server, id)} data-testid="ask-inbox-answer">
                  Answer…
                </button>
                <button type="button" className="button button-small" onClick={() => void answerAsk(services, server, id, declineAnswer(ask.message.method))} data-testid="ask-inbox-decline">
                  Decline
                </button>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
