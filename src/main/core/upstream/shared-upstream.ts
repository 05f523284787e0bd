/**
 * One upstream connection shared by every session of a server (`shared: true`). Each session gets
 * a link that looks like its own connection. Request ids and progress tokens are rewritten to
 * hub-unique values on the way up and restored on the way down, so two clients that both use id 1
 * never collide. The first `initialize` goes to the server; later ones are answered from its
 * cached result, since the server has already been initialized once.
 *
 * Trade-off, on purpose: state the server keeps per connection (log level, subscriptions) is shared
 * by all of its sessions. That is what "shared" means; servers that need isolation keep the default.
 */
import { ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from '../../../shared/protocol.js';
import { errorResponse, idKey, isNotification, isRequest, progressTokenOf, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/json-rpc.js';
import { withId } from '../protocol/lazy-answer.js';
import { replaceIdKeepingBytes } from '../protocol/wire-bytes.js';
import type { UpstreamClosed, UpstreamConnection } from './upstream.js';

interface Outstanding {
  link: SharedLink;
  originalId: JsonRpcId;
  progressToken: JsonRpcId | undefined;
}

const BROADCAST = /list_changed$|^notifications\/resources\/updated$/;

export class SharedUpstream {
  private child: UpstreamConnection | undefined;
  private starting: Promise<UpstreamConnection> | undefined;
  private readonly links = new Set<SharedLink>();
  private nextId = 1;
  /** Child-side request id → who asked. Insertion order = age, used to route unrelated messages. */
  readonly outstanding = new Map<number, Outstanding>();
  /** Server-initiated request id → the link it was routed to. */
  private readonly serverRequests = new Map<string, SharedLink>();
  private initResult: unknown;
  /** Settles when the first `initialize` of the current child has been answered. */
  private initInFlight: Promise<void> | undefined;
  private initSettled: (() => void) | undefined;
  private initializedSent = false;
  /** Server-initiated messages refused or dropped because their client could not be told. */
  ambiguous = 0;

  constructor(private readonly open: () => Promise<UpstreamConnection>) {}

  get childCount(): number {
    return this.child && !this.child.closed ? 1 : 0;
  }

  get stderrTail(): string | undefined {
    return this.child?.stderrTail;
  }

  link(): SharedLink {
    const link = new SharedLink(this);
    this.links.add(link);
    return link;
  }

  unlink(link: SharedLink): void {
    this.links.delete(link);
    for (const [id, o] of this.outstanding) {
      if (o.link !== link) continue;
      this.outstanding.delete(id);
      this.child?.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'client session closed' } });
    }
    for (const [key, l] of this.serverRequests) if (l === link) this.serverRequests.delete(key);
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    await child?.close();
  }

  async childConnection(): Promise<UpstreamConnection> {
    if (this.child && !this.child.closed) return this.child;
    this.starting ??= this.open().then((child) => {
      this.child = child;
      this.initResult = undefined;
      this.initializedSent = false;
      child.onmessage = (m, raw) => this.fromChild(m, raw);
      child.onclose = (info) => this.childClosed(child, info);
      // The one child's log belongs to every session that shares it.
      child.onevent = (event) => {
        for (const link of this.links) link.onevent?.(event);
      };
      return child;
    });
    try {
      return await this.starting;
    } finally {
      this.starting = undefined;
    }
  }

  async fromLink(link: SharedLink, message: JsonRpcMessage, raw: string | undefined): Promise<void> {
    const child = await this.childConnection();
    if (isRequest(message)) {
      if (message.method === 'initialize') {
        // Concurrent first sessions: wait for the one initialize in flight instead of sending another.
        if (this.initResult === undefined && this.initInFlight) await this.initInFlight;
        if (this.initResult !== undefined) {
          const answer = { jsonrpc: '2.0' as const, id: message.id, result: negotiated(this.initResult, message.params?.protocolVersion) };
          link.deliver(answer, JSON.stringify(answer));
          return;
        }
        this.initInFlight = new Promise((resolve) => (this.initSettled = resolve));
      }
      const id = this.nextId++;
      const progressToken = progressTokenOf(message);
      this.outstanding.set(id, { link, originalId: message.id, progressToken });
      child.send(rewrite(message, id));
      return;
    }
    if (isNotification(message)) {
      if (message.method === 'notifications/initialized') {
        if (this.initializedSent) return;
        this.initializedSent = true;
      } else if (message.method === 'notifications/cancelled') {
        const childId = this.childIdOf(link, message.params?.requestId);
        if (childId === undefined) return;
        this.outstanding.delete(childId);
        child.send({ ...message, params: { ...message.params, requestId: childId } });
        return;
      }
      child.send(message, raw);
      return;
    }
    // A client's answer to a server-initiated request: the id is the child's own, pass it on.
    this.serverRequests.delete(idKey(message.id ?? ''));
    child.send(message, raw);
  }

  private childIdOf(link: SharedLink, original: unknown): number | undefined {
    for (const [id, o] of this.outstanding) if (o.link === link && o.originalId === original) return id;
    return undefined;
  }

  private fromChild(message: JsonRpcMessage, raw: string): void {
    if (!('method' in message)) {
      const id = typeof message.id === 'number' ? message.id : NaN;
      const o = this.outstanding.get(id);
      if (!o) return;
      this.outstanding.delete(id);
      const restored = withId(message, o.originalId);
      // Read only while it may be the initialize answer: a large result is parsed on first read.
      if (this.initResult === undefined) {
        const result = (message as { result?: { protocolVersion?: unknown } }).result;
        if (result && typeof result.protocolVersion === 'string') this.initResult = result;
      }
      if (this.initSettled && ('result' in message || 'error' in message)) this.settleInit();
      // The answer's text with the client's id put back, not the answer serialised again
      // (json-splice.ts); its bytes, when the reader carries them, spliced alike (wire-bytes.ts).
      o.link.deliver(restored, replaceIdKeepingBytes(raw, JSON.stringify(o.originalId)) ?? JSON.stringify(restored));
      return;
    }
    if (message.method === 'notifications/progress') {
      const token = (message.params as { progressToken?: unknown } | undefined)?.progressToken;
      const o = typeof token === 'string' && token.startsWith('pb-') ? this.outstanding.get(Number(token.slice(3))) : undefined;
      if (o && o.progressToken !== undefined) {
        const restored = { ...message, params: { ...message.params, progressToken: o.progressToken } };
        o.link.deliver(restored, JSON.stringify(restored));
      }
      return;
    }
    if (isNotification(message) && BROADCAST.test(message.method)) {
      for (const link of this.links) link.deliver(message, raw);
      return;
    }
    const target = this.targetFor(message);
    if (target) {
      if (isRequest(message)) this.serverRequests.set(idKey(message.id), target);
      target.deliver(message, raw);
      return;
    }
    // Stdio says nothing of which client a server request belongs to. Guessing could hand one
    // client's sampling prompt to another, so when more than one could be meant, fail closed.
    this.ambiguous++;
    if (isRequest(message)) {
      this.child?.send(errorResponse(message.id, ErrorCode.InternalError, `patchbay: cannot tell which client '${message.method}' is for: several sessions share this server (shared: true) and have calls in flight`));
    }
  }

  /**
   * The only link a server-initiated message can belong to: the one session with calls in
   * flight, or the only session there is. Undefined when that is ambiguous.
   */
  private targetFor(message: JsonRpcMessage): SharedLink | undefined {
    if (isNotification(message) && message.method === 'notifications/cancelled') {
      const key = idKey((message.params as { requestId?: JsonRpcId } | undefined)?.requestId ?? '');
      return this.serverRequests.get(key);
    }
    let only: SharedLink | undefined;
    for (const o of this.outstanding.values()) {
      if (only && o.link !== only) return undefined;
      only = o.link;
    }
    if (only) return only;
    return this.links.size === 1 ? this.links.values().next().value : undefined;
  }

  private settleInit(): void {
    this.initSettled?.();
    this.initSettled = undefined;
    this.initInFlight = undefined;
  }

  private childClosed(child: UpstreamConnection, info: UpstreamClosed): void {
    if (this.child === child) this.child = undefined;
    this.settleInit();
    this.outstanding.clear();
    this.serverRequests.clear();
    for (const link of [...this.links]) link.lost(info);
  }
}

/**
 * The cached initialize result, for a later session that may ask for an older version. A server
 * that answered version X is taken to support the hub-supported versions up to X (lifecycle:
 * "if the server supports the requested version, it MUST respond with the same version").
 */
function negotiated(result: unknown, requested: unknown): unknown {
  const r = result as { protocolVersion: string };
  const supported = (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(requested as string);
  if (!supported || (requested as string) > r.protocolVersion) return result;
  return { ...r, protocolVersion: requested };
}

/** Rewrites a request's id, and its progress token to one derived from that id. */
function rewrite(message: JsonRpcRequest, id: number): JsonRpcRequest {
  const token = progressTokenOf(message);
  if (token === undefined) return { ...message, id };
  const params = message.params as Record<string, unknown>;
  const meta = params._meta as Record<string, unknown>;
  return { ...message, id, params: { ...params, _meta: { ...meta, progressToken: `pb-${id}` } } };
}

export class SharedLink implements UpstreamConnection {
  onmessage: UpstreamConnection['onmessage'];
  onclose: UpstreamConnection['onclose'];
  onevent: UpstreamConnection['onevent'];
  private isClosed = false;

  constructor(private readonly shared: SharedUpstream) {}

  get closed(): boolean {
    return this.isClosed;
  }

  get stderrTail(): string | undefined {
    return this.shared.stderrTail;
  }

  send(message: JsonRpcMessage, raw?: string): void {
    if (this.isClosed) return;
    void this.shared.fromLink(this, message, raw).catch((err: Error) => {
      this.lost({ message: err.message });
    });
  }

  deliver(message: JsonRpcMessage, raw: string): void {
    if (!this.isClosed) this.onmessage?.(message, raw, false);
  }

  lost(info: UpstreamClosed): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.shared.unlink(this);
    this.onclose?.(info);
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.shared.unlink(this);
  }
}
