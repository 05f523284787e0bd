/**
 * The subscribers of completed exchanges (traffic.ts `onExchange`). A subscriber is called in the
 * pipeline's drain, once per completed exchange, in completion order; it must not block (an
 * exporter queues and sends on its own time). One that throws is logged and the others still run.
 */
import type { Logger } from '../log/logger.js';
import type { ExchangeTexts, ObservedExchange } from './observed-exchange.js';

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

interface Subscriber {
  readonly listener: ExchangeListener;
  readonly texts: boolean;
  readonly passive: boolean;
}

export class ExchangeFeed {
  private subscribers: Subscriber[] = [];
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

  private recount(): void {
    this.active = this.subscribers.filter((s) => !s.passive).length;
    this.textsWanted = this.subscribers.filter((s) => s.texts).length;
  }
}
