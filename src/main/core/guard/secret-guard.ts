/**
 * Secret checks on a server's traffic (docs/secret-checks.md): what a client sends in a
 * `tools/call`'s or `prompts/get`'s arguments or a `resources/read`'s URI, and what the server
 * answers to those, is checked for secrets (secret-finder.ts). Per server (`secretCheck`):
 * - `warn` (the default): the message passes at once and is checked after it went, its first
 *   WARN_SCAN_CHARS (64 Ki) characters only (a large answer — a file, an image — costs no more);
 *   a finding is reported (the inspector's timeline, a notice in the UI, the audit trail);
 * - `mask`: the message waits for its check, and what was found is replaced by `[secret:<name>]`;
 * - `block`: the message waits for its check; a request that carries a secret is not sent (the
 *   client gets an error naming the rule and where, never the secret), an answer that carries one
 *   is replaced by such an error;
 * - `off`: nothing is checked, and the connection is not wrapped at all.
 *
 * It wraps a server's upstream connections where the server runtime makes them — the server
 * port's own seam — in both eras; the hub's spine is unchanged. Under `mask` and `block` the
 * messages of a connection keep their order: while one is being checked, the ones after it wait.
 */
import type { JsonRpcId, JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from '../protocol/json-rpc.js';
import type { ModernCall, ModernCallHandlers, ModernCallRequest, ModernUpstream } from '../upstream/modern-upstream.js';
import type { ClientIdentity, HubAnswer, UpstreamConnection } from '../upstream/upstream.js';
import type { SecretFinder, SecretFinding } from './secret-finder.js';

export type SecretCheckMode = 'off' | 'warn' | 'mask' | 'block';

export interface GuardReport {
  server: string;
  direction: 'request' | 'result';
  method: string;
  /** The tool, prompt or resource the request names. */
  target?: string;
  /** Who the client is (the engine names it as the audit trail does), when known. */
  who?: ClientIdentity;
  action: 'warned' | 'masked' | 'blocked';
  findings: SecretFinding[];
}

export interface GuardDeps {
  finder: SecretFinder;
  report(report: GuardReport): void;
  /** A check that failed (never expected): reported, and the message passes under `warn` or is refused under `block`. */
  failed(server: string, err: Error): void;
}

/**
 * How much of a message `warn` reads: about 0.2 ms of the hub's CPU at most, whatever the size —
 * the default must not make large answers dearer (the markers' scan costs up to ~3 ms per MiB;
 * with 256 KiB a 1 MiB answer cost the hub 0.4–1 ms more in bench/run.mjs). Tool arguments are
 * almost always smaller and are read whole. `mask` and `block` read everything.
 */
export const WARN_SCAN_CHARS = 64 * 1024;

/** A JSON-RPC error code of the implementation-defined server range: a policy of Patchbay's refused the message. */
export const BLOCKED_CODE = -32001;

const CHECKED: Readonly<Record<string, (params: Record<string, unknown>) => { value: unknown; where: string; target?: string }>> = {
  'tools/call': (p) => ({ value: p.arguments ?? {}, where: 'arguments', ...name(p.name) }),
  'prompts/get': (p) => ({ value: p.arguments ?? {}, where: 'arguments', ...name(p.name) }),
  'resources/read': (p) => ({ value: p.uri, where: 'uri', ...name(p.uri) }),
};

function name(value: unknown): { target?: string } {
  return typeof value === 'string' ? { target: value } : {};
}

/** The request's part to check, or undefined when its method is not checked. */
function requestPart(message: JsonRpcMessage): { method: string; value: unknown; where: string; target?: string } | undefined {
  const m = message as Partial<JsonRpcRequest>;
  if (typeof m.method !== 'string' || m.id === undefined) return undefined;
  const part = CHECKED[m.method];
  return part ? { method: m.method, ...part(m.params ?? {}) } : undefined;
}

interface Pending {
  method: string;
  target?: string;
}

type Checked<T> = { kind: 'pass' } | { kind: 'replace'; value: T } | { kind: 'block'; error: string };

/** Checks one message part under a mode: what to do with it. Reports what it found. */
async function judge(mode: SecretCheckMode, deps: GuardDeps, base: Omit<GuardReport, 'action' | 'findings'>, value: unknown, where: string): Promise<Checked<unknown>> {
  if (mode === 'mask') {
    const { value: masked, findings } = await deps.finder.mask(value, where);
    if (findings.length === 0) return { kind: 'pass' };
    deps.report({ ...base, action: 'masked', findings });
    return { kind: 'replace', value: masked };
  }
  const findings = await deps.finder.find(value, where, mode === 'warn' ? WARN_SCAN_CHARS : Infinity);
  if (findings.length === 0) return { kind: 'pass' };
  deps.report({ ...base, action: mode === 'block' ? 'blocked' : 'warned', findings });
  if (mode !== 'block') return { kind: 'pass' };
  const f = findings[0]!;
  const what = f.rule === 'stored-secret' ? 'a value of Patchbay\'s secret store' : `a credential (${f.label})`;
  const more = findings.length > 1 ? ` and ${findings.length - 1} more` : '';
  return base.direction === 'request'
    ? { kind: 'block', error: `Patchbay blocked this request to server '${base.server}': ${f.where} carries ${what}${f.encoding === 'plain' ? '' : `, ${f.encoding}-encoded`} (rule ${f.rule})${more}. Nothing was sent. The server's secret check is set to "block".` }
    : { kind: 'block', error: `Patchbay withheld server '${base.server}''s answer: ${f.where} carries ${what}${f.encoding === 'plain' ? '' : `, ${f.encoding}-encoded`} (rule ${f.rule})${more}. The server's secret check is set to "block".` };
}

/**
 * `judge`, and what a check that failed (never expected) means: reported through `failed`; the
 * message passes under `warn` and `mask`, and is refused under `block`.
 */
async function screen(mode: SecretCheckMode, deps: GuardDeps, base: Omit<GuardReport, 'action' | 'findings'>, value: unknown, where: string): Promise<Checked<unknown>> {
  try {
    return await judge(mode, deps, base, value, where);
  } catch (err) {
    deps.failed(base.server, err as Error);
    if (mode !== 'block') return { kind: 'pass' };
    return { kind: 'block', error: `Patchbay could not check this ${base.direction === 'request' ? 'request' : 'answer'} for secrets, and server '${base.server}''s secret check is set to "block": ${(err as Error).message}` };
  }
}

/** What the client gets in place of a blocked request, or of an answer that was withheld. */
function blockedAnswer(id: JsonRpcResponse['id'], error: string): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: { code: BLOCKED_CODE, message: error } };
}

/** The answer as the client gets it after a check that did not pass: withheld, or masked. */
function judgedAnswer(message: JsonRpcResponse, verdict: Exclude<Checked<unknown>, { kind: 'pass' }>): JsonRpcResponse {
  return verdict.kind === 'block' ? blockedAnswer(message.id, verdict.error) : ({ ...message, result: verdict.value } as JsonRpcResponse);
}

/** A message `warn` checks after it went: its text (`raw`, else `value`'s JSON) is read only then. */
interface Later {
  deps: GuardDeps;
  server: string;
  raw: string | undefined;
  value: unknown;
  /** Runs the check proper, when the screen says the text may hold a secret. */
  check: () => void;
}

/**
 * `warn`'s checks, run after the messages went: one setImmediate for all that a turn of the event
 * loop queued (two per call — its request and its answer — would each cost a timer). Each screens
 * the first WARN_SCAN_CHARS of its message's text.
 */
let queued: Later[] = [];
function checkLater(later: Later): void {
  queued.push(later);
  if (queued.length === 1) setImmediate(runLater);
}

function runLater(): void {
  const batch = queued;
  queued = [];
  for (const { deps, server, raw, value, check } of batch) {
    // One that throws (never expected: the check proper reports its own failures) is reported
    // as a failed check, and cannot stop the others.
    try {
      const text = raw ?? JSON.stringify(value) ?? '';
      if (deps.finder.mayContain(text.length > WARN_SCAN_CHARS ? text.slice(0, WARN_SCAN_CHARS) : text)) check();
    } catch (err) {
      deps.failed(server, err as Error);
    }
  }
}

/** A report in words, names and places only (never a value): the session's timeline and the log say it so. */
export function notice(report: Pick<GuardReport, 'direction' | 'method' | 'action'>, findings: readonly SecretFinding[]): string {
  const list = findings.map((f) => `${f.rule === 'stored-secret' ? `secret ${f.label}` : f.label} at ${f.where}${f.encoding === 'plain' ? '' : ` (${f.encoding})`}`).join('; ');
  return `secret check: ${report.method} ${report.direction === 'request' ? 'request' : 'answer'} ${report.action} — ${list}`;
}

/** A 2025 connection (a session's), checked. */
export function guardConnection(inner: UpstreamConnection, server: string, mode: SecretCheckMode, deps: GuardDeps, who?: () => ClientIdentity): UpstreamConnection {
  return mode === 'off' ? inner : new GuardedConnection(inner, server, mode, deps, who);
}

class GuardedConnection implements UpstreamConnection {
  onmessage: UpstreamConnection['onmessage'];
  onclose: UpstreamConnection['onclose'];
  private listener: UpstreamConnection['onevent'];
  private readonly pending = new Map<JsonRpcId, Pending>();
  /** Under mask/block: the tail of each direction's chain of messages waiting for a check. */
  private out: Promise<void> | undefined;
  private in: Promise<void> | undefined;
  pause?: () => void;
  resume?: () => void;

  constructor(
    private readonly inner: UpstreamConnection,
    private readonly server: string,
    private readonly mode: SecretCheckMode,
    private readonly deps: GuardDeps,
    /** The session's client, asked only when a check reports. */
    private readonly who: (() => ClientIdentity) | undefined,
  ) {
    inner.onmessage = (message, raw, local) => this.fromServer(message, raw, local);
    inner.onclose = (info) => this.onclose?.(info);
    if (inner.pause) this.pause = () => inner.pause!();
    if (inner.resume) this.resume = () => inner.resume!();
  }

  // Events reach the inner connection only while someone listens (a remote's HTTP records cost).
  get onevent(): UpstreamConnection['onevent'] {
    return this.listener;
  }
  set onevent(listener: UpstreamConnection['onevent']) {
    this.listener = listener;
    this.inner.onevent = listener;
  }

  get closed(): boolean {
    return this.inner.closed;
  }
  get stderrTail(): string | undefined {
    return this.inner.stderrTail;
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  send(message: JsonRpcMessage, raw?: string): void {
    const asked = requestPart(message);
    const id = (message as { id?: JsonRpcId }).id;
    // A request the client gave up on gets no answer to check: forget it.
    if ((message as { method?: string }).method === 'notifications/cancelled') this.pending.delete((message as { params?: { requestId?: JsonRpcId } }).params?.requestId as JsonRpcId);
    if (asked && id !== undefined) this.pending.set(id, { method: asked.method, ...(asked.target !== undefined ? { target: asked.target } : {}) });
    if (this.mode === 'warn') {
      this.inner.send(message, raw);
      if (asked) this.later(raw, asked.value, () => this.background('request', asked.method, asked.target, asked.value, asked.where));
      return;
    }
    // Most requests carry nothing that could be a secret: known at once, and they go as they are.
    const part = asked && this.deps.finder.mayContain(raw ?? JSON.stringify(asked.value)) ? asked : undefined;
    if (!part && this.out === undefined) return this.inner.send(message, raw);
    this.out = this.after(this.out, async () => {
      if (!part) return this.inner.send(message, raw);
      const verdict = await this.check('request', part.method, part.target, part.value, part.where);
      if (verdict.kind === 'pass') return this.inner.send(message, raw);
      if (verdict.kind === 'block') {
        this.pending.delete(id!);
        const answer = blockedAnswer(id!, verdict.error);
        return this.deliver(answer, JSON.stringify(answer), 'policy');
      }
      const params = { ...(message as JsonRpcRequest).params, [part.where]: verdict.value };
      this.inner.send({ ...(message as JsonRpcRequest), params } as JsonRpcMessage);
    });
  }

  private fromServer(message: JsonRpcMessage, raw: string, local: boolean | HubAnswer): void {
    const id = (message as { id?: JsonRpcId }).id;
    const answered = id !== undefined && 'result' in message ? this.pending.get(id) : undefined;
    if (id !== undefined && ('result' in message || 'error' in message)) this.pending.delete(id);
    // Read where a check needs it, not here: a large answer's result is parsed on first read
    // (lazy-answer.ts), and an answer that goes straight on should not be parsed on its way.
    const resultOf = (): unknown => (message as { result?: unknown }).result;
    if (this.mode === 'warn') {
      this.onmessage?.(message, raw, local);
      if (answered) this.later(raw, undefined, () => this.background('result', answered.method, answered.target, resultOf(), 'result'));
      return;
    }
    const asked = answered && this.deps.finder.mayContain(raw) ? answered : undefined;
    if (!asked) return this.deliver(message, raw, local);
    this.in = this.after(this.in, async () => {
      const verdict = await this.check('result', asked.method, asked.target, resultOf(), 'result');
      if (verdict.kind === 'pass') return this.onmessage?.(message, raw, local);
      const answer = judgedAnswer(message as JsonRpcResponse, verdict);
      this.onmessage?.(answer, JSON.stringify(answer), local);
    });
  }

  /** Delivers now, or after what waits for a check (order kept). */
  private deliver(message: JsonRpcMessage, raw: string, local: boolean | HubAnswer): void {
    if (this.in === undefined) return this.onmessage?.(message, raw, local);
    this.in = this.after(this.in, async () => this.onmessage?.(message, raw, local));
  }

  /** Chains a step; the chain's tail is cleared when it is the last. */
  private after(tail: Promise<void> | undefined, step: () => Promise<void> | void): Promise<void> {
    const next: Promise<void> = (tail ?? Promise.resolve()).then(step).catch((err: Error) => this.deps.failed(this.server, err));
    void next.then(() => {
      if (this.out === next) this.out = undefined;
      if (this.in === next) this.in = undefined;
    });
    return next;
  }

  private check(direction: GuardReport['direction'], method: string, target: string | undefined, value: unknown, where: string): Promise<Checked<unknown>> {
    return screen(this.mode, this.reporting(), { server: this.server, direction, method, ...(target !== undefined ? { target } : {}) }, value, where);
  }

  private background(direction: GuardReport['direction'], method: string, target: string | undefined, value: unknown, where: string): void {
    void this.check(direction, method, target, value, where);
  }

  private later(raw: string | undefined, value: unknown, check: () => void): void {
    checkLater({ deps: this.deps, server: this.server, raw, value, check });
  }

  /** The deps, with each report also told to this session's observers (the inspector's timeline). */
  private reporting(): GuardDeps {
    return {
      ...this.deps,
      report: (r) => {
        this.deps.report(this.who !== undefined ? { ...r, who: this.who() } : r);
        this.listener?.({ type: 'notice', text: notice(r, r.findings) });
      },
    };
  }
}

/** A server's 2026-07-28 upstream, checked: each call's request before it goes, its answer before it is given. */
export function guardModern(inner: ModernUpstream, server: string, mode: SecretCheckMode, deps: GuardDeps): ModernUpstream {
  if (mode === 'off') return inner;
  return {
    ...(inner.translates !== undefined ? { translates: inner.translates } : {}),
    close: () => inner.close(),
    call: (request, handlers) => modernCall(inner, server, mode, deps, request, handlers),
  };
}

function modernCall(inner: ModernUpstream, server: string, mode: SecretCheckMode, deps: GuardDeps, request: ModernCallRequest, handlers: ModernCallHandlers): ModernCall {
  const part = requestPart(request.message);
  if (!part) return inner.call(request, handlers);
  const base = { server, method: part.method, ...(part.target !== undefined ? { target: part.target } : {}), ...(request.who !== undefined ? { who: request.who } : {}) };
  const reporting: GuardDeps = { ...deps, report: (r) => { deps.report(r); handlers.event?.({ type: 'notice', text: notice(r, r.findings) }); } };
  const check = (direction: GuardReport['direction'], value: unknown, where: string): Promise<Checked<unknown>> => screen(mode, reporting, { ...base, direction }, value, where);
  const checkedHandlers: ModernCallHandlers = {
    ...handlers,
    response: (message, raw, info) => {
      // `in`, not a read: a large answer's result is parsed on first read (lazy-answer.ts).
      if (!('result' in message) || info.local) return handlers.response(message, raw, info);
      const resultOf = (): unknown => (message as { result?: unknown }).result;
      if (mode === 'warn') {
        handlers.response(message, raw, info);
        return checkLater({ deps, server, raw, value: undefined, check: () => void check('result', resultOf(), 'result') });
      }
      if (!deps.finder.mayContain(raw)) return handlers.response(message, raw, info);
      void check('result', resultOf(), 'result').then((v) => {
        if (v.kind === 'pass') return handlers.response(message, raw, info);
        const answer = judgedAnswer(message, v);
        handlers.response(answer, JSON.stringify(answer), info);
      });
    },
  };
  if (mode === 'warn') {
    const call = inner.call(request, checkedHandlers);
    checkLater({ deps, server, raw: request.raw, value: part.value, check: () => void check('request', part.value, part.where) });
    return call;
  }
  if (!deps.finder.mayContain(request.raw ?? JSON.stringify(part.value))) return inner.call(request, checkedHandlers);
  const verdict = check('request', part.value, part.where);
  // The call starts once its request is judged; a cancel before then ends it there.
  let call: ModernCall | undefined;
  let cancelled: string | undefined;
  void verdict.then((v) => {
    if (cancelled !== undefined) return;
    if (v.kind === 'block') {
      const answer = blockedAnswer(request.message.id, v.error);
      return handlers.response(answer, JSON.stringify(answer), { local: true, answered: 'policy' });
    }
    const out = v.kind === 'pass' ? request : { ...request, raw: undefined, message: { ...request.message, params: { ...request.message.params, [part.where]: v.value } } };
    call = inner.call(out, checkedHandlers);
  });
  return {
    cancel: (reason) => {
      if (call) call.cancel(reason);
      else cancelled = reason;
    },
  };
}
