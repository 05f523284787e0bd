/**
 * Secrets never reach the inspector's output: not in an event, a search result, an export, the
 * live stream, a replay, the history files or the log. A server is configured with a secret
 * reference, a literal credential and a value the config marks secret; a client sends secrets in
 * arguments, headers and `\u`-escaped JSON; the server prints them on stdout and stderr. Then
 * everything the inspector can produce, and every file in the data dir, is searched for them.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { CaptureEvent, InspectorSession } from '../../src/shared/api/inspector-contract.js';
import { setLogLevel, setLogSink } from '../../src/main/core/log/logger.js';
import { onCleanup } from '../helpers/cleanup.js';
import { messagesOfResponse } from '../helpers/mcp-http.js';
import { probeServer } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { filesUnder, openLive, readLive, startCaptureHub } from './inspector-harness.js';

const API_KEY = 'sk-live-SECRET-abcdef123456';
const STORE_ONLY = 'store-only-value-77ac19';
const WEIRD = 'we"ird/sec\\ret-1234';
const DB_PASSWORD = 'literal-db-password-9f8e7d';
const MARKED = 'custom-marked-value-456';

describe('inspector redaction', () => {
  it('keeps every configured secret, store value and the hub token out of events, search, exports, the live stream, replay, history and logs', async () => {
    const logs: string[] = [];
    setLogLevel('debug');
    setLogSink((record) => logs.push(JSON.stringify(record)));
    onCleanup(() => {
      setLogSink(undefined);
      setLogLevel('warn');
    });
    const hub = await startCaptureHub({
      servers: { probe: probeServer({ env: { API_KEY: '${secret:API_KEY}', DB_PASSWORD, PLAIN_SETTING: MARKED } }) },
      inspector: { secretNames: ['PLAIN_SETTING'] },
      secrets: { API_KEY, UNUSED_TOKEN: STORE_ONLY, WEIRD },
    });
    const token = hub.token!;
    const secrets = { API_KEY, STORE_ONLY, WEIRD, DB_PASSWORD, MARKED, token, weirdEscaped: JSON.stringify(WEIRD).slice(1, -1) };

    const client = await connect(hub, 'probe');
    const env = await client.tool('dump_env');
    expect(env).toContain(API_KEY);
    expect(env).toContain(DB_PASSWORD);
    const echoed = await client.tool('echo', { text: `key=${API_KEY} token=${token} store=${STORE_ONLY} weird=${WEIRD}` });
    expect(echoed).toContain(WEIRD);
    await client.tool('stderr', { text: `server log: ${API_KEY} ${DB_PASSWORD} ${MARKED} ${token}` });
    // A secret spelled with \u escapes in the request body, and secrets in request headers.
    const escaped = `\\u0073${API_KEY.slice(1)}`;
    const body = `{"jsonrpc":"2.0","id":"esc","method":"tools/call","params":{"name":"echo","arguments":{"text":"${escaped}"}}}`;
    const res = await client.post(body, { headers: { 'X-Api-Key': API_KEY, 'X-Trace': `trace-${STORE_ONLY}` } });
    expect(JSON.stringify((await messagesOfResponse(res)).messages)).toContain(API_KEY);
    await hub.settle();

    const [session] = (await hub.call<{ sessions: InspectorSession[] }>('inspector.sessions.list', {})).sessions;
    const outputs: Record<string, unknown> = {};
    outputs.sessions = await hub.call('inspector.sessions.list', {});
    outputs.session = await hub.call('inspector.sessions.get', { session: session!.id });
    outputs.events = await hub.events();
    outputs.exchanges = await hub.exchanges(session!.id, true);
    outputs.stats = await hub.call('inspector.stats', {});
    outputs.status = await hub.call('inspector.status', {});
    for (const q of ['abcdef', 'sk-live', 'store-only', 'literal-db', 'custom-marked', 'ird/sec', token.slice(0, 12), 'secret:']) {
      outputs[`search:${q}`] = await hub.call('inspector.search', { query: q });
    }
    outputs.jsonl = await hub.call('inspector.export', { session: session!.id, format: 'jsonl' });
    outputs.har = await hub.call('inspector.export', { session: session!.id, format: 'har' });
    const echoCall = (outputs.exchanges as Array<{ id: string; method: string; requestId: unknown }>).find((x) => x.requestId === 2)!;
    outputs.replay = await hub.call('inspector.replay', { session: session!.id, exchange: echoCall.id });
    const envCall = (outputs.exchanges as Array<{ id: string; requestId: unknown }>).find((x) => x.requestId === 1)!;
    outputs.replayEnv = await hub.call('inspector.replay', { session: session!.id, exchange: envCall.id });
    await hub.settle();
    const cursor = (await hub.call<{ cursor: number }>('inspector.status', {})).cursor;
    const live = await openLive(hub, 'cursor=0');
    outputs.live = (await readLive(live.reader, (events) => events.length > 0 && events[events.length - 1]!.seq >= cursor)).events;
    live.close();

    // The redaction is visible (masks where the values were), and the values are nowhere.
    const text = JSON.stringify(outputs);
    expect(text).toContain('[secret:API_KEY]');
    expect(text).toContain('[secret:hub-token]');
    expect(text).toContain('[secret:UNUSED_TOKEN]');
    expect(text).toContain('[redacted]');
    expect(text).toContain('[secret:probe.env.DB_PASSWORD]');
    expect(text).toContain('[secret:probe.env.PLAIN_SETTING]');
    expect(text).toContain('[secret:WEIRD]');
    const escapedRequest = (outputs.events as CaptureEvent[]).find((e) => e.id === 'esc' && e.leg === 'client' && e.kind === 'request')!;
    expect(JSON.stringify(escapedRequest.message)).toContain('[secret:API_KEY]');
    const searchHits = (outputs['search:secret:'] as { hits: CaptureEvent[] }).hits;
    expect(searchHits.length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(secrets)) expect(text.includes(value), `${name} in the API output`).toBe(false);
    const headers = (outputs.events as CaptureEvent[]).find((e) => e.id === 'esc' && e.leg === 'client')!.http!.headers!;
    expect(headers['x-api-key']).toBe('[redacted]');
    expect(headers['x-trace']).toBe('trace-[secret:UNUSED_TOKEN]');

    // Disk: history files and everything else the engine wrote (not the secret store itself,
    // the token file or the config, which hold them by design).
    await hub.close();
    const files = (await filesUnder(hub.dataDir)).filter((f) => !/(secrets\.json|hub-token|config\.json)(\.bak)?$/.test(f));
    expect(files.some((f) => f.endsWith('.jsonl'))).toBe(true);
    for (const file of files) {
      const content = await readFile(file, 'utf8');
      for (const [name, value] of Object.entries(secrets)) expect(content.includes(value), `${name} in ${file}`).toBe(false);
    }
    expect(logs.some((l) => l.includes('server log:'))).toBe(true);
    for (const line of logs) for (const [name, value] of Object.entries(secrets)) expect(line.includes(value), `${name} in the log: ${line}`).toBe(false);
  });

  it('replays a client request in a fresh hub session, and refuses a server no longer configured', async () => {
    const hub = await startCaptureHub({ servers: { probe: probeServer(), other: probeServer() } });
    const client = await connect(hub, 'probe');
    await client.tool('echo', { text: 'x' });
    await hub.settle();
    const session = (await hub.sessions())[0]!;
    const call = (await hub.exchanges(session.id)).find((x) => x.method === 'tools/call')!;
    const replay = await hub.call<{ original: { response: unknown }; replay: { status: string; response: unknown; session: string } }>('inspector.replay', { session: session.id, exchange: call.id });
    expect(replay.replay.status).toBe('ok');
    expect(replay.replay.response).toMatchObject({ result: { content: [{ text: 'x' }] } });
    expect(replay.original.response).toMatchObject({ result: { content: [{ text: 'x' }] } });
    await hub.settle();
    const debug = (await hub.sessions()).find((s) => s.id === replay.replay.session)!;
    expect(debug).toMatchObject({ debug: true, state: 'closed', client: { name: 'patchbay-replay' }, transport: { client: 'hub' } });
    expect((await hub.exchanges(debug.id)).every((x) => x.requester === 'hub')).toBe(true);

    const init = (await hub.exchanges(session.id)).find((x) => x.method === 'initialize')!;
    expect((await hub.callRaw('inspector.replay', { session: session.id, exchange: init.id })).code).toBe('not_replayable');
    expect((await hub.callRaw('inspector.replay', { session: session.id, exchange: `${session.id}/999999` })).code).toBe('exchange_not_found');
    await hub.engine.config.update((draft) => {
      delete draft.mcpServers.probe;
    });
    await hub.settle();
    const refused = await hub.callRaw('inspector.replay', { session: session.id, exchange: call.id });
    expect(refused).toMatchObject({ ok: false, code: 'server_not_configured' });
    expect(refused.message).toContain("'probe' is not configured");
  });
});
