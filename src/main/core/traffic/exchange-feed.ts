/**
 * The subscribers of completed exchanges (traffic.ts `onExchange`). A subscriber is called in the
 * pipeline's drain, once per completed exchange, in completion order; it must not block (an
 * exporter queues and sends on its own time). One that throws is logged and the others still run.
 */
import type { CaptureEra } from '../../../shared/api/inspector-contract.js';
import type { Logger } from '../log/logger.js';
import type { ExchangeSession, ExchangeTexts, ObservedExchange } from './observed-exchange.js';

/** What a subscriber asks for. */
export interface ExchangeFeedOptions {
  /**
   * Add `texts`: the request's params and the answer's result or error as redacted JSON text
   * (the inspector's redaction). Off by default: it costs a serialisation of both per exchange,
   * and the request's text is held until the answer. Exchanges already open when the first such
   * subscriber arrived have no `params` text. A text longer than the inspector's
   * `maxMessageBytes` (1 MiB) is a JSON string holding its prefix, as the inspector keeps it.
   */
  texts?: boolean;
  /**
   * Listen only while something else runs the pipeline (the inspector's capture, another
   * subscriber): a passive subscriber does not by itself make the hub observe new sessions. The
   * inspector's statistics subscribe so, and cost nothing with capture off.
   */
  passive?: boolean;
}

export type ExchangeListener = (exchange: ObservedExchange) => void;

/** A session that ended, as session subscribers get it (traffic.ts `onSessionEnded`). */
export interface EndedSession {
  readonly session: ExchangeSession;
  /** Epoch ms when the pipeline first saw the session, and when it ended. */
  readonly startedAt: number;
  readonly endedAt: number;
  /** `failed`: its server failed (and was not restarted), or it ended failing. */
  readonly state: 'closed' | 'failed';
  /** The session's protocol version, once known. */
  readonly protocolVersion: string | undefined;
  /** The server's era, once the session was bridged to a server of the other era. */
  readonly serverEra: CaptureEra | undefined;
}

export type SessionEndedListener = (ended: EndedSession) => void;

interface Subscriber {
  readonly listener: ExchangeListener;
  readonly texts: boolean;
  readonly passive: boolean;
}

export class ExchangeFeed {
  private subscribers: Subscriber[] = [];
  private sessionListeners: SessionEndedListener[] = [];
  /** Subscribers that are not passive: the pipeline runs for them. */
  active = 0;
  /** Subscribers that asked for texts. */
  textsWanted = 0;

  constructor(private readonly log: Logger) {}

  get size(): number {
    return this.subscribers.length;
  }

  add(listener: ExchangeListener, options: ExchangeFeedOptions = {}): () => void {
    const subscriber: Subscriber = { listener, texts: options.texts === true, passive: options.passive === true };
    this.subscribers = [...this.subscribers, subscriber];
    this.recount();
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.subscribers = this.subscribers.filter((s) => s !== subscriber);
      this.recount();
    };
  }

  /**
   * Hands one exchange to every subscriber; `texts` (made once, and only when one asked: the
   * caller passes it only then) is added on a copy for those that asked.
   */
  publish(exchange: ObservedExchange, texts: (() => ExchangeTexts) | undefined): void {
    let withTexts: ObservedExchange | undefined;
    // The list as it stands (add and remove replace it): a subscriber may unsubscribe meanwhile.
    for (const s of this.subscribers) {
      let x = exchange;
      if (s.texts && texts !== undefined) x = withTexts ??= { ...exchange, texts: texts() };
      try {
        s.listener(x);
      } catch (err) {
        this.log.warn(`an exchange subscriber failed: ${(err as Error).message}`);
      }
    }
  }

  /** Listens to sessions ending (passive: it never makes the pipeline run). Returns the unsubscribe function. */
  addSessionListener(listener: SessionEndedListener): () => void {
    this.sessionListeners = [...this.sessionListeners, listener];
    return () => {
      this.sessionListeners = this.sessionListeners.filter((l) => l !== listener);
    };
  }

  /** True when someone listens to sessions ending (the caller builds the record only then). */
  get sessionsWanted(): boolean {
    return this.sessionListeners.length > 0;
  }

  /** Hands one ended session to every session listener. */
  publishEnded(ended: EndedSession): void {
    for (const listener of this.sessionListeners) {
      try {
        listener(ended);
      } catch (err) {
        this.log.warn(`a session subscriber failed: ${(err as Error).message}`);
      }
    }
  }

  private recount(): void {
    this.active = this.subscribers.filter((s) => !s.passive).length;
    this.textsWanted = this.subscribers.filter((s) => s.texts).length;
  }
}
