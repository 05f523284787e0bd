/**
 * `patchbay sessions`: the sessions a running hub captured, from its inspector over `/api`.
 * The hub is found through the discovery file (hub.json) of the data dir, and called with the
 * token in <data dir>/hub-token; both are only ever sent to a hub on loopback.
 */
import { readFile } from 'node:fs/promises';
import type { InspectorSession } from '../../../shared/api/inspector-contract.js';
import { errCode } from '../../core/index.js';
import { discoverHub } from '../../relay/index.js';
import { EXIT_OK, UsageError, type CliCommand, type CommandContext } from '../command.js';
import { cliDataPaths, DATA_DIR_OPTION } from '../locations.js';
import { stringValue } from '../parse-args.js';

/** A running hub as the CLI talks to it. */
export interface HubApi {
  url: string;
  headers: Record<string, string>;
  call<T>(name: string, input: unknown): Promise<T>;
}

/** Finds the hub of the command's data dir, or fails with what to do. */
export async function connectHub(ctx: CommandContext): Promise<HubApi> {
  const paths = cliDataPaths(ctx.io, ctx.values, ctx.commandPath);
  const found = await discoverHub(paths.discoveryFile);
  if (!found.ok) throw new Error(`${found.message}; start one with: patchbay serve${ctx.values['data-dir'] ? ' --data-dir <the same dir>' : ''}`);
  let token: string | undefined;
  try {
    token = (await readFile(paths.tokenFile, 'utf8')).trim();
  } catch (err) {
    // A hub started with --no-auth may have no token file: try without one.
    if (errCode(err) !== 'ENOENT') throw new Error(`cannot read the hub token in ${paths.tokenFile}: ${(err as Error).message}`);
  }
  const url = found.value.url;
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  return {
    url,
    headers,
    async call<T>(name: string, input: unknown): Promise<T> {
      let res: Response;
      try {
        res = await fetch(`${url}/api/call/${name}`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(input) });
      } catch (err) {
        throw new Error(`the hub at ${url} does not answer: ${(err as Error).message}`);
      }
      if (res.status === 401) throw new Error(`the hub at ${url} refused the token in ${paths.tokenFile} (was it rotated? restart the hub, or check --data-dir)`);
      const body = (await res.json().catch(() => undefined)) as { ok: boolean; value?: T; code?: string; message?: string } | undefined;
      if (!body) throw new Error(`the hub at ${url} answered ${name} with HTTP ${res.status} and no JSON`);
      if (!body.ok) throw new Error(body.code === 'unknown_call' ? `the hub at ${url} has no inspector (it is an older version): ${body.message}` : `${body.message}`);
      return body.value as T;
    },
  };
}

/** One call to the hub of the command's data dir; each call reads the discovery file and token again (cheap, and never a stale hub). */
export async function callHub<T>(ctx: CommandContext, name: string, input: unknown): Promise<T> {
  return (await connectHub(ctx)).call<T>(name, input);
}

const STATES = new Set(['live', 'closed', 'failed']);

/**
 * Sessions no MCP client made: the UI's playground (a person driving a server or a profile) and
 * the inspector's replays. Hidden unless asked for, as in the UI's Sessions list.
 */
export function ownSessionKind(s: InspectorSession): 'playground' | 'replay' | undefined {
  if (s.transport.client === 'playground') return 'playground';
  return s.debug ? 'replay' : undefined;
}

/** A profile's traffic with one of its members, on behalf of another session: that session's detail, hidden unless asked for. */
export function memberOf(s: InspectorSession): string | undefined {
  return s.profile?.id;
}

export const sessionsCommand: CliCommand = {
  name: 'sessions',
  summary: 'List the sessions of a running hub (live ones; --all for past ones too)',
  details: [
    'One line per session: id, server, client, state, start, duration, calls, errors.',
    'Past sessions come from the inspector history in <data dir>/inspector (kept 7 days by default).',
    "Sessions of the UI's playground and the inspector's replays are hidden unless --playground or",
    '--all is given; shown, their client is marked [playground] or [replay] (in JSON: transport.client',
    '"playground", debug true). So are the sessions a profile holds with each of its members on behalf',
    'of a client\'s session (--members or --all; marked [member of @name]; in JSON: profile).',
  ].join('\n'),
  options: [
    { name: 'server', type: 'string', valueName: 'ID', description: 'Only sessions of this server (or profile: @name)' },
    { name: 'state', type: 'string', valueName: 'STATE', description: 'Only sessions in this state: live, closed or failed' },
    { name: 'all', type: 'boolean', description: 'Every session: closed and failed ones too, and those of the playground and replays' },
    { name: 'playground', type: 'boolean', description: 'Sessions of the playground and of replays too (hidden otherwise)' },
    { name: 'members', type: 'boolean', description: "A profile's sessions with its members too (hidden otherwise)" },
    { name: 'limit', type: 'string', valueName: 'N', description: 'At most N sessions, newest first (default 50)' },
    { name: 'json', type: 'boolean', description: 'Print the sessions as JSON (one array)' },
    DATA_DIR_OPTION,
  ],
  examples: [
    { command: 'patchbay sessions', description: 'The live sessions of the running hub' },
    { command: 'patchbay sessions --all --server github', description: 'Every captured session of the server "github"' },
    { command: 'patchbay sessions --state failed --json', description: 'Failed sessions, with their exit codes, as JSON' },
    { command: 'patchbay sessions --playground --server @work', description: "Live sessions of the profile \"work\", the playground's included" },
    { command: 'patchbay sessions --members', description: "Live sessions, and what each profile session exchanges with its members" },
  ],
  run: listSessions,
};

async function listSessions(ctx: CommandContext): Promise<number> {
  const state = stringValue(ctx.values, 'state', ctx.commandPath);
  if (state !== undefined && !STATES.has(state)) throw new UsageError('--state must be live, closed or failed', ctx.commandPath);
  const limitText = stringValue(ctx.values, 'limit', ctx.commandPath) ?? '50';
  if (!/^\d{1,4}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 1000) throw new UsageError('--limit must be a whole number from 1 to 1000', ctx.commandPath);
  const server = stringValue(ctx.values, 'server', ctx.commandPath);
  const hub = await connectHub(ctx);
  const input: Record<string, unknown> = {};
  if (server !== undefined) input.server = server;
  if (state !== undefined) input.state = state;
  else if (ctx.values.all !== true) input.state = 'live';
  const show = { own: ctx.values.all === true || ctx.values.playground === true, members: ctx.values.all === true || ctx.values.members === true };
  const { sessions, total, hidden, more } = await fetchSessions(hub, input, Number(limitText), show);
  if (ctx.values.json === true) {
    ctx.io.stdout.write(JSON.stringify(sessions, null, 2) + '\n');
    return EXIT_OK;
  }
  const note = (n: number, what: string, flag: string): string => (n > 0 ? `patchbay: ${more ? 'some' : n} ${what} session${n === 1 && !more ? ' is' : 's are'} hidden; ${flag} shows them\n` : '');
  const hiddenNote = note(hidden.own, 'playground or replay', '--playground') + note(hidden.members, 'profile member', '--members');
  if (sessions.length === 0) {
    ctx.io.stderr.write(`patchbay: no ${input.state ?? ''}${input.state ? ' ' : ''}sessions${server ? ` of '${server}'` : ''}${ctx.values.all === true || state ? '' : ' (add --all for past ones)'}\n` + hiddenNote);
    return EXIT_OK;
  }
  ctx.io.stdout.write(formatSessions(sessions, Date.now()));
  if (more) ctx.io.stderr.write(`patchbay: showing ${sessions.length}${total !== undefined ? ` of ${total}` : ''}; use --limit for more\n`);
  ctx.io.stderr.write(hiddenNote);
  return EXIT_OK;
}

interface Fetched {
  sessions: InspectorSession[];
  /** Sessions that match, when known (always when own sessions are shown). */
  total: number | undefined;
  /** Own sessions and profile member sessions left out (all of them unless `more`). */
  hidden: { own: number; members: number };
  /** More sessions match than `limit`. */
  more: boolean;
}

/**
 * Up to `limit` sessions, newest first. The inspector's query cannot leave out own or member
 * sessions, so unless both are shown the pages are filtered here and read on until `limit` are
 * found or none are left.
 */
async function fetchSessions(hub: HubApi, input: Record<string, unknown>, limit: number, show: { own: boolean; members: boolean }): Promise<Fetched> {
  if (show.own && show.members) {
    const page = await hub.call<{ sessions: InspectorSession[]; total: number }>('inspector.sessions.list', { ...input, limit });
    return { sessions: page.sessions, total: page.total, hidden: { own: 0, members: 0 }, more: page.total > page.sessions.length };
  }
  const pageSize = Math.min(1000, Math.max(100, limit + 1));
  const seen = new Set<string>();
  const sessions: InspectorSession[] = [];
  const hidden = { own: 0, members: 0 };
  let more = false;
  for (let offset = 0; ; ) {
    const page = await hub.call<{ sessions: InspectorSession[]; total: number }>('inspector.sessions.list', { ...input, limit: pageSize, offset });
    for (const s of page.sessions) {
      // A session that started while paging shifts the pages by one: never count one twice.
      if (seen.has(s.id)) continue;
      seen.add(s.id);
      if (!show.members && memberOf(s) !== undefined) hidden.members++;
      else if (!show.own && ownSessionKind(s)) hidden.own++;
      else if (sessions.length < limit) sessions.push(s);
      else more = true;
    }
    offset += page.sessions.length;
    if (more || page.sessions.length === 0 || offset >= page.total) break;
  }
  return { sessions, total: more ? undefined : sessions.length, hidden, more };
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** Local time, with the date when it is not today. */
export function clock(ms: number, now: number, withMillis = false): string {
  const d = new Date(ms);
  const time = `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}${withMillis ? `.${String(d.getMilliseconds()).padStart(3, '0')}` : ''}`;
  return new Date(now).toDateString() === d.toDateString() ? time : `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${time}`;
}

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)}m${pad2(Math.floor((ms % 60_000) / 1000))}s`;
  return `${Math.floor(ms / 3_600_000)}h${pad2(Math.floor((ms % 3_600_000) / 60_000))}m`;
}

function stateText(s: InspectorSession): string {
  if (s.state !== 'failed') return s.state;
  const f = s.failure;
  if (f?.exitCode !== undefined && f.exitCode !== null) return `failed (exit ${f.exitCode})`;
  if (f?.signal) return `failed (${f.signal})`;
  return 'failed';
}

function clientText(s: InspectorSession): string {
  const kind = ownSessionKind(s);
  const member = memberOf(s);
  const client = s.client ? `${s.client.name}${s.client.version ? ` ${s.client.version}` : ''}` : '-';
  return member !== undefined ? `${client} [member of ${member || '@default'}]` : kind ? `${client} [${kind}]` : client;
}

export function formatSessions(sessions: InspectorSession[], now: number): string {
  const rows = sessions.map((s) => [
    s.id,
    s.server,
    clientText(s),
    stateText(s),
    clock(s.startedAt, now),
    duration((s.endedAt ?? now) - s.startedAt),
    String(s.exchanges.total - s.exchanges.pending),
    String(s.errors),
  ]);
  const header = ['SESSION', 'SERVER', 'CLIENT', 'STATE', 'STARTED', 'DURATION', 'CALLS', 'ERRORS'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ') + '\n';
  return line(header) + rows.map(line).join('');
}
