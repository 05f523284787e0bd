/**
 * `patchbay tail`: follows a running hub, one line per completed exchange (time, client, server,
 * method, latency, status, and the short trace id when telemetry traced it), from the inspector's
 * live stream. A dropped connection is resumed from the last event seen, so no exchange is
 * printed twice or missed.
 */
import type { CaptureEvent, ExchangeSummary, InspectorSession } from '../../../shared/api/inspector-contract.js';
import { SseParser } from '../../core/index.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type CliCommand, type CommandContext } from '../command.js';
import { DATA_DIR_OPTION } from '../locations.js';
import { stringValue } from '../parse-args.js';
import { clock, connectHub, ownSessionKind, type HubApi } from './sessions.js';

export const tailCommand: CliCommand = {
  name: 'tail',
  summary: 'Follow the exchanges crossing a running hub, one line each, until Ctrl-C',
  details: [
    'Columns: time, client, server, method, latency, status (ok, error <code> <message>, timeout,',
    'cancelled, orphaned; "error tool failed: <text>" for a tool whose result says isError).',
    'Requests the server sends (sampling, elicitation) are marked "← server".',
    "Exchanges of the UI's playground and of the inspector's replays end with [playground] or [replay]",
    '(in JSON: "sessionKind").',
    'An exchange telemetry traced shows the first 8 digits of its trace id ("trace 4bf92f35"; in JSON:',
    '"trace": {"traceId", "spanId"}, the hub\'s span for the request).',
  ].join('\n'),
  options: [
    { name: 'server', short: 's', type: 'string', valueName: 'ID', description: 'Only exchanges of this server (or profile: @name)' },
    { name: 'json', type: 'boolean', description: 'Print each exchange as one line of JSON' },
    { name: 'count', type: 'string', valueName: 'N', description: 'Stop after N exchanges' },
    DATA_DIR_OPTION,
  ],
  examples: [
    { command: 'patchbay tail', description: 'Every exchange of every server' },
    { command: 'patchbay tail --server github', description: 'Only the server "github"' },
    { command: 'patchbay tail --json --count 100 > calls.jsonl', description: 'The next 100 exchanges as JSON lines' },
  ],
  run: tail,
};

const RETRY_MS = [250, 500, 1000, 2000, 5000];

async function tail(ctx: CommandContext): Promise<number> {
  const countText = stringValue(ctx.values, 'count', ctx.commandPath);
  if (countText !== undefined && (!/^\d{1,9}$/.test(countText) || Number(countText) < 1)) throw new UsageError('--count must be a whole number of at least 1', ctx.commandPath);
  const server = stringValue(ctx.values, 'server', ctx.commandPath);
  let left = countText === undefined ? Infinity : Number(countText);
  let hub = await connectHub(ctx);
  const kinds = new SessionKinds(() => hub);
  let cursor: number | undefined;
  for (let attempt = 0; ; ) {
    const outcome = await follow(ctx, hub, server, cursor, kinds, (x, seq, kind) => {
      cursor = seq;
      ctx.io.stdout.write(ctx.values.json === true ? JSON.stringify(kind ? { ...x, sessionKind: kind } : x) + '\n' : formatExchange(x, Date.now(), kind));
      return --left > 0;
    });
    if (outcome.cursor !== undefined) cursor = outcome.cursor;
    if (outcome.kind === 'done') return EXIT_OK;
    if (outcome.kind === 'connected') attempt = 0;
    // The stream broke (the hub restarted, or stopped): find it again and resume from the cursor.
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]));
    try {
      hub = await connectHub(ctx);
    } catch (err) {
      if (attempt >= RETRY_MS.length) {
        ctx.io.stderr.write(`patchbay: ${(err as Error).message}\n`);
        return EXIT_FAILURE;
      }
    }
  }
}

type Outcome = { kind: 'done' | 'connected' | 'failed'; cursor?: number };
type SessionKind = ReturnType<typeof ownSessionKind>;

/**
 * Whether a session is the playground's or a replay, asked of the inspector once per session
 * (an exchange does not say; its session does). Bounded; a failed lookup is asked again.
 */
class SessionKinds {
  private readonly known = new Map<string, SessionKind>();
  constructor(private readonly hub: () => HubApi) {}

  async of(session: string): Promise<SessionKind> {
    if (this.known.has(session)) return this.known.get(session);
    let kind: SessionKind;
    try {
      kind = ownSessionKind(await this.hub().call<InspectorSession>('inspector.sessions.get', { session }));
    } catch {
      return undefined;
    }
    this.known.set(session, kind);
    if (this.known.size > 1000) this.known.delete(this.known.keys().next().value!);
    return kind;
  }
}

/** Reads the live stream until it ends or `print` says stop. */
async function follow(
  ctx: CommandContext,
  hub: HubApi,
  server: string | undefined,
  cursor: number | undefined,
  kinds: SessionKinds,
  print: (x: ExchangeSummary, seq: number, kind: SessionKind) => boolean,
): Promise<Outcome> {
  const params = new URLSearchParams({ view: 'exchanges' });
  if (server !== undefined) params.set('server', server);
  if (cursor !== undefined) params.set('cursor', String(cursor));
  const controller = new AbortController();
  let res: Response;
  try {
    res = await fetch(`${hub.url}/api/inspector/live?${params}`, { headers: hub.headers, signal: controller.signal });
  } catch {
    return { kind: 'failed' };
  }
  if (res.status === 401) throw new Error(`the hub at ${hub.url} refused the hub token (was it rotated? check --data-dir)`);
  if (res.status !== 200 || !res.body) throw new Error(`the hub at ${hub.url} has no inspector live stream (HTTP ${res.status})`);
  let done = false;
  let last = cursor;
  // Parsed exchanges wait here for their session's kind; printed in order before more is read.
  const queue: Array<{ x: ExchangeSummary; seq: number }> = [];
  const parser = new SseParser((event) => {
    if (done) return;
    if (event.event === 'ready' && last === undefined) last = (JSON.parse(event.data) as { cursor: number }).cursor;
    if (event.event === 'gap') ctx.io.stderr.write(`patchbay: some exchanges were no longer stored and are not shown\n`);
    if (event.event !== 'capture') return;
    const e = JSON.parse(event.data) as CaptureEvent;
    last = e.seq;
    for (const x of e.exchanges ?? []) queue.push({ x, seq: e.seq });
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      parser.push(decoder.decode(chunk, { stream: true }));
      for (const { x, seq } of queue.splice(0)) {
        if (print(x, seq, await kinds.of(x.session))) continue;
        done = true;
        controller.abort();
        break;
      }
      if (done) break;
    }
  } catch {
    // Aborted by us, or the connection broke: told apart below.
  }
  const outcome: Outcome = { kind: done ? 'done' : 'connected' };
  if (last !== undefined) outcome.cursor = last;
  return outcome;
}

function statusText(x: ExchangeSummary): string {
  // A failed tool answers with a result, not a JSON-RPC error: still a failure (issue 16).
  if (x.status === 'error' && x.isError) return `error tool failed${x.reason ? `: ${x.reason.split('\n')[0]!.slice(0, 120)}` : ''}`;
  if (x.status === 'error' && x.error) return `error ${x.error.code} ${x.error.message.split('\n')[0]!.slice(0, 120)}`;
  if (x.reason && x.status !== 'ok') return `${x.status} (${x.reason.split('\n')[0]!.slice(0, 120)})`;
  return x.status;
}

export function formatExchange(x: ExchangeSummary, now: number, kind?: SessionKind): string {
  const latency = x.latencyMs === undefined ? '-' : x.latencyMs < 10 ? `${x.latencyMs.toFixed(1)}ms` : `${Math.round(x.latencyMs)}ms`;
  const method = x.requester === 'client' ? x.method : `${x.method} ← ${x.requester}`;
  const columns = [clock(x.endedAt ?? x.startedAt, now, true), (x.client ?? '-').padEnd(16), x.server.padEnd(12), method.padEnd(24), latency.padStart(8), statusText(x)];
  // Enough of the id to find the trace in a viewer's search; --json has all of it.
  if (x.trace) columns.push(`trace ${x.trace.traceId.slice(0, 8)}`);
  if (kind) columns.push(`[${kind}]`);
  return columns.join('  ') + '\n';
}
