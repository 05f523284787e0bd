/**
 * The links of one remote connection over its life, and the upstream session each carries: which
 * transport they use (the one that answered initialize), a new link when the last one was retired,
 * the client's own `initialize` replayed on it when the server lost the session (P17) and the
 * client's resource subscriptions made again there, and a lost event stream re-opened at once
 * (then with a growing delay) while the client holds subscriptions that would have nowhere to go.
 *
 * Separate from remote-upstream.ts, which passes messages and decides what a failed POST means:
 * this is what happens between two links. It fails requests only through the pending table
 * (remote-pending.ts) and reaches the connection only through `LinkOwner`, set once.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { JsonRpcMessage, JsonRpcRequest } from '../protocol/json-rpc.js';
import type { RemoteFetch } from './remote-fetch.js';
import type { InternalRequests } from './remote-internal-requests.js';
import { RemoteLink, type LinkKind } from './remote-link.js';
import type { LinkRequest } from './remote-post.js';
import type { RemoteUpstreamOptions } from './remote-options.js';
import type { RemotePending } from './remote-pending.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import type { UpstreamConnection } from './upstream.js';

const REINIT_PREFIX = 'patchbay-reinit-';
const RESUBSCRIBE_PREFIX = 'patchbay-resubscribe-';
/** A lost event stream with subscriptions behind it is re-opened at once, then after these delays (doubling to the cap). */
const REOPEN_BACKOFF_MS = 1000;
const REOPEN_BACKOFF_CAP_MS = 60_000;

/** What link management needs of the connection it serves: set once, when the connection is made. */
export interface LinkOwner {
  /** Whether the connection was closed (a link opened meanwhile is closed again; nothing is re-opened). */
  closed(): boolean;
  /** The connection's `onevent` as it is now (its session sets it only while an observer wants events). */
  events(): UpstreamConnection['onevent'];
  /** Gives a new link its message handler, before it starts. */
  receive(link: RemoteLink): void;
  /** The links' fetch (it reports each HTTP exchange). */
  readonly fetch: RemoteFetch;
  /** The links' POSTs by undici's request API, when the fetch offers it (it reports each exchange too). */
  readonly request?: LinkRequest;
}

/** A remote connection's current link, and the upstream session on it. */
export class RemoteLinks {
  /** The transport that answered initialize; later links use it too. */
  kind: LinkKind | undefined;
  /** The client's `initialize`, replayed on a new upstream session. */
  initializeRequest: JsonRpcRequest | undefined;
  /** The client's `notifications/initialized` went out: a replay sends it too. */
  initializedSent = false;
  /** The client's resource subscriptions as the server accepted them, renewed on a new upstream session. */
  readonly subscriptions = new ResourceSubscriptions();
  private link: RemoteLink | undefined;
  private linking: Promise<RemoteLink> | undefined;
  private generation = 0;
  private initialized = false;
  private reinitCounter = 0;
  private reopenTimer: NodeJS.Timeout | undefined;
  private lastReopen = 0;
  private reopenDelay = 0;

  constructor(
    private readonly opts: RemoteUpstreamOptions,
    private readonly url: URL,
    private readonly pending: RemotePending,
    private readonly internal: InternalRequests,
    private readonly owner: LinkOwner,
  ) {}

  /** The link in service, or a new one (re-initialized unless `forInitialize`); one at a time. */
  ensure(forInitialize: boolean): Promise<RemoteLink> {
    if (this.link && !this.link.dead) return Promise.resolve(this.link);
    this.linking ??= this.open(forInitialize).finally(() => {
      this.linking = undefined;
    });
    return this.linking;
  }

  /**
   * Takes a link out of service. Requests the server took on it lose their answer with it: they
   * get an error. Those still being POSTed fail their POST, and are sent again (RemoteUpstream.dispatch).
   */
  retire(link: RemoteLink, keep?: string): void {
    if (this.link === link) this.link = undefined;
    link.dead = true;
    this.pending.lostWith(link, keep);
    void link.close(false);
  }

  /** The server answered the client's `initialize` on `link`: its version, and the transport settled. */
  initializeAnswered(link: RemoteLink, message: JsonRpcMessage): void {
    const version = (message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version !== 'string') return;
    link.setProtocolVersion(version);
    const first = !this.initialized;
    this.kind = link.kind;
    this.initialized = true;
    if (first) this.owner.events()?.({ type: 'transport', transport: link.kind });
  }

  /** No more re-opens (the connection is closing). */
  stopReopening(): void {
    clearTimeout(this.reopenTimer);
  }

  /** Closes the link in service (DELETE of its upstream session first), once one being opened is done. */
  async close(): Promise<void> {
    const link = this.link;
    this.link = undefined;
    await this.linking?.catch(() => undefined);
    await link?.close(true);
  }

  private async open(forInitialize: boolean): Promise<RemoteLink> {
    const kind: LinkKind = this.kind ?? (this.opts.transport === 'sse' ? 'sse' : 'streamable-http');
    const link = new RemoteLink(kind, ++this.generation, {
      url: this.url,
      headers: this.opts.headers,
      fetch: this.owner.fetch,
      ...(this.owner.request ? { request: this.owner.request } : {}),
      ...(this.opts.auth ? { auth: this.opts.auth.provider } : {}),
      logger: this.opts.logger,
    });
    this.owner.receive(link);
    link.onlost = (err) => {
      const why = err.message && err.message !== 'SSE error: undefined' ? ` (${err.message})` : '';
      const when = this.subscriptions.size > 0 ? 're-opening it for the client\'s resource subscriptions' : 'the next message re-initializes';
      this.opts.logger.warn(`server '${this.opts.serverId}': the event stream ended${why}; ${when}`);
      this.retire(link);
      // Nothing else would open a new stream before the client's next message, and until then the
      // updates of its subscriptions would have nowhere to go.
      if (this.subscriptions.size > 0) this.reopenSoon();
    };
    await link.start(this.opts.initializeTimeoutMs);
    if (this.owner.closed()) {
      await link.close(false);
      throw new Error('the connection is closed');
    }
    try {
      if (!forInitialize && this.initialized && this.initializeRequest) {
        await this.replayInitialize(link);
        await this.replaySubscriptions(link);
      }
    } catch (err) {
      await link.close(true);
      throw err;
    }
    this.link = link;
    return link;
  }

  /**
   * Re-initializes a new upstream session with the client's own `initialize` (P17). It stays here,
   * not in the session (which replays for stdio): it must run on the new link before the message
   * that found the session gone is retried there, and only the remote connection knows links. What
   * it sends and hears is reported as `reinitialize` events, so the session captures it as its own
   * replay.
   */
  private async replayInitialize(link: RemoteLink): Promise<void> {
    const answer = await this.internal.ask(link, { ...this.initializeRequest!, id: `${REINIT_PREFIX}${++this.reinitCounter}` });
    const error = (answer as { error?: { message?: string } }).error;
    if (error) throw new Error(`refused the replayed initialize: ${error.message ?? 'no message'}`);
    // A restart counts once the server took the initialize: while it is down, every message tries
    // (and fails) to re-initialize, and those attempts opened nothing.
    this.owner.events()?.({ type: 'reinitialize', step: 'opened' });
    const version = (answer as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version === 'string') link.setProtocolVersion(version);
    if (!this.initializedSent) return;
    const initialized: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/initialized' };
    this.owner.events()?.({ type: 'reinitialize', step: 'sent', message: initialized });
    await link.send(initialized as JSONRPCMessage);
  }

  /**
   * After a re-initialization: the client's resource subscriptions, made again in the order it made
   * them, so the server's `notifications/resources/updated` reach it on the new session. The
   * answers are the hub's own (told to observers as part of the replay, never to the client, which
   * had its answers long ago); a refusal is logged and the link stays in use.
   */
  private async replaySubscriptions(link: RemoteLink): Promise<void> {
    const failures = await this.subscriptions.renew((params) => this.internal.ask(link, { jsonrpc: '2.0', id: `${RESUBSCRIBE_PREFIX}${++this.reinitCounter}`, method: 'resources/subscribe', params }));
    for (const failure of failures) this.opts.logger.warn(`server '${this.opts.serverId}': could not renew a resource subscription: ${failure}`);
  }

  /**
   * Opens a new link (re-initialized, subscriptions renewed) after a lost event stream: at once
   * when the last re-open is long past, else after a delay that doubles (to a cap) while re-opens
   * keep failing or their streams keep dropping; never after the connection closed.
   */
  private reopenSoon(): void {
    if (this.owner.closed() || this.reopenTimer || !this.initialized) return;
    const recent = Date.now() - this.lastReopen < REOPEN_BACKOFF_CAP_MS;
    this.reopenDelay = recent ? Math.min(REOPEN_BACKOFF_CAP_MS, Math.max(REOPEN_BACKOFF_MS, this.reopenDelay * 2)) : 0;
    this.reopenTimer = setTimeout(() => {
      this.reopenTimer = undefined;
      this.lastReopen = Date.now();
      if (this.owner.closed() || (this.link && !this.link.dead)) return;
      this.ensure(false).catch((err: unknown) => {
        this.opts.logger.warn(`server '${this.opts.serverId}': could not re-open the event stream: ${(err as Error).message}; trying again`);
        this.reopenSoon();
      });
    }, this.reopenDelay);
    this.reopenTimer.unref();
  }
}
