/**
 * A profile's traffic with its members reaches the observers (issue 22): besides the client's
 * session on `/mcp/@pair`, the inspector shows one session per member (client transport
 * `profile`) with what the profile exchanged with that member under the member's own names — for
 * a 2025 client's session and for 2026-07-28 requests alike — the aggregate's own requests marked
 * as the hub's; a member whose child dies shows the failure in that server's status; and a 2025
 * session's member sessions end with it. A real engine, two real stdio fixtures, real HTTP.
 */
import { describe, expect, it } from 'vitest';
import type { CaptureEvent, Exchange, InspectorSession } from '../../src/shared/api/inspector-contract.js';
import '../helpers/cleanup.js';
import { apiCall } from '../helpers/hub-api.js';
import { toolText, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { messagesOfResponse, post } from '../helpers/mcp-http.js';
import { killQuietly } from '../helpers/processes.js';
import { probeServer } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';
import { alphaServer, betaServer } from './profile-harness.js';

const MODERN = '2026-07-28';

async function value<T>(hub: TestHub, name: string, input: unknown = {}): Promise<T> {
  const answer = await apiCall<T>(hub, name, input);
  if (!answer.ok) throw new Error(`${name}: ${answer.code} ${answer.message}`);
  return answer.value as T;
}

async function sessions(hub: TestHub): Promise<InspectorSession[]> {
  return (await value<{ sessions: InspectorSession[] }>(hub, 'inspector.sessions.list', { limit: 1000 })).sessions;
}

async function exchanges(hub: TestHub, session: string): Promise<Exchange[]> {
  return (await value<{ exchanges: Exchange[] }>(hub, 'inspector.exchanges.list', { session, full: true, limit: 1000 })).exchanges;
}

/** The member sessions of one era, once one per member is there. */
async function memberSessions(hub: TestHub, era: 'legacy' | 'modern'): Promise<Map<string, InspectorSession>> {
  return waitFor(async () => {
    const found = (await sessions(hub)).filter((s) => s.transport.client === 'profile' && (s.era ?? 'legacy') === era);
    return found.length === 2 ? new Map(found.map((s) => [s.server, s])) : undefined;
  }, `a ${era} session for each member`);
}

/** The member's `tools/call` of its own tool `name`, once it is paired. */
async function memberCall(hub: TestHub, session: InspectorSession, name: string): Promise<Exchange> {
  return waitFor(async () => (await exchanges(hub, session.id)).find((x) => x.method === 'tools/call' && (x.request as { params?: { name?: unknown } } | undefined)?.params?.name === name && x.status !== 'pending'), `the ${session.server} session's tools/call of '${name}'`);
}

/** A session's stderr lines, once `line` is among them. */
async function stderrOf(hub: TestHub, session: string, line: string): Promise<string[]> {
  return waitFor(async () => {
    const events = (await value<{ events: CaptureEvent[] }>(hub, 'inspector.events.list', { session, limit: 5000 })).events;
    const lines = events.filter((e) => e.kind === 'stderr').map((e) => e.text ?? '');
    return lines.includes(line) ? lines : undefined;
  }, `'${line}' among the session's stderr lines`);
}

async function lastError(hub: TestHub, server: string): Promise<{ stage: string; message: string } | undefined> {
  const overview = await value<Array<{ id: string; status: { lastError?: { stage: string; message: string } } }>>(hub, 'servers.overview');
  return overview.find((s) => s.id === server)?.status.lastError;
}

/** One 2026-07-28 request on raw HTTP (the envelope and headers an SDK would send): its final answer. */
async function modernCall(hub: TestHub, id: number, tool: string, args: Record<string, unknown>): Promise<JsonRpcMessage> {
  const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'modern-observer-test', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const body = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args, _meta: meta } };
  const res = await post(hub, '@pair', body, { headers: { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': tool } });
  const last = (await messagesOfResponse(res, 30_000)).messages.at(-1);
  if (!last) throw new Error(`no answer to ${tool}`);
  return last;
}

describe("a profile's member traffic, observed", () => {
  it('shows a session per member with its own tool names (2025 and 2026-07-28 clients), a dead member in its status, and ends them with the session', async () => {
    const hub = await startHub({ servers: { alpha: alphaServer(), beta: betaServer() }, config: { profiles: { pair: { servers: ['alpha', 'beta'] } } } });

    // A 2025 client's session: each member reached under the profile's prefixed names.
    const client = await connect(hub, '@pair');
    expect(await client.tool('alpha__echo', { text: 'to alpha' })).toBe('alpha: to alpha');
    expect(await client.tool('beta__echo', { text: 'to beta' })).toBe('beta: to beta');

    const legacy = await memberSessions(hub, 'legacy');
    const profileSession = (await sessions(hub)).find((s) => s.server === '@pair' && s.transport.client === 'streamable-http');
    expect(profileSession).toMatchObject({ state: 'live', client: { name: 'patchbay-hub-test' } });
    for (const [server, text] of [['alpha', 'to alpha'], ['beta', 'to beta']] as const) {
      const session = legacy.get(server)!;
      // A session of its own, on the member's own transport, serving the client's session (its initialize is the client's).
      expect(session).toMatchObject({ server, state: 'live', transport: { client: 'profile', upstream: 'stdio' }, client: { name: 'patchbay-hub-test' } });
      // The forwarded call, under the member's own (unprefixed) name, paired with the member's answer.
      const call = await memberCall(hub, session, 'echo');
      expect(call).toMatchObject({ requester: 'client', status: 'ok', request: { params: { name: 'echo', arguments: { text } } } });
      expect(toolText(call.response as JsonRpcMessage)).toBe(`${server}: ${text}`);
      // The aggregate's own requests (its merged lists) are the hub's, not the client's.
      const own = (await exchanges(hub, session.id)).filter((x) => x.method === 'tools/list');
      expect(own.length).toBeGreaterThan(0);
      for (const x of own) expect(x).toMatchObject({ requester: 'hub', status: 'ok' });
    }

    // A 2026-07-28 client: no session of its own, so member sessions of the modern aggregate (the
    // fixtures speak 2025 only: the hub's bridge reaches them), with the same calls on them.
    expect(toolText(await modernCall(hub, 1, 'alpha__echo', { text: 'modern alpha' }))).toBe('alpha: modern alpha');
    expect(toolText(await modernCall(hub, 2, 'beta__echo', { text: 'modern beta' }))).toBe('beta: modern beta');
    const modern = await memberSessions(hub, 'modern');
    for (const [server, text] of [['alpha', 'modern alpha'], ['beta', 'modern beta']] as const) {
      const session = modern.get(server)!;
      expect(session).toMatchObject({ server, era: 'modern', transport: { client: 'profile' } });
      const call = await memberCall(hub, session, 'echo');
      expect(call).toMatchObject({ requester: 'client', status: 'ok', requestId: server === 'alpha' ? 1 : 2, request: { params: { name: 'echo', arguments: { text } } } });
      expect(toolText(call.response as JsonRpcMessage)).toBe(`${server}: ${text}`);
    }

    // The child behind the session's beta dies: beta's own status says so, learned from the profile's traffic.
    expect(await lastError(hub, 'beta')).toBeUndefined();
    const betaPid = Number(await client.tool('beta__whoami'));
    killQuietly(betaPid, 'SIGKILL');
    const error = await waitFor(() => lastError(hub, 'beta'), "beta's status to show the failure", 15_000);
    expect(error).toMatchObject({ stage: 'exit', message: expect.stringContaining('SIGKILL') });
    expect(await lastError(hub, 'alpha')).toBeUndefined();

    // The client ends its session: the profile session and its member sessions end; the modern
    // aggregate's serve no session and stay.
    expect((await client.delete()).status).toBe(200);
    const after = await waitFor(async () => {
      const all = await sessions(hub);
      const ended = [profileSession!.id, ...[...legacy.values()].map((s) => s.id)].map((id) => all.find((s) => s.id === id));
      return ended.every((s) => s !== undefined && s.state !== 'live') ? all : undefined;
    }, 'the profile session and its member sessions to end');
    for (const s of modern.values()) expect(after.find((x) => x.id === s.id)?.state).toBe('live');
  }, 60_000);

  it("gives a member's stderr to its own session as it is, and to the profile session named by the member", async () => {
    const hub = await startHub({ servers: { alpha: alphaServer(), probe: probeServer() }, config: { profiles: { pair: { servers: ['alpha', 'probe'] } } } });
    const client = await connect(hub, '@pair');
    expect(await client.tool('probe__stderr', { text: 'a line for the log' })).toBe('written');
    const member = (await memberSessions(hub, 'legacy')).get('probe')!;
    expect(await stderrOf(hub, member.id, 'a line for the log')).not.toContain('[probe] a line for the log');
    const profileSession = (await sessions(hub)).find((s) => s.server === '@pair')!;
    expect(await stderrOf(hub, profileSession.id, '[probe] a line for the log')).not.toContain('a line for the log');
  }, 60_000);
});
