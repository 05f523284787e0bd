/**
 * PROTOCOL B (P9–P13): SSE streams, resumability and keep-alives.
 */
import { describe, expect, it } from 'vitest';
import { isResponse, toolCall, toolText, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { jsonRpcErrorOf } from '../helpers/mcp-http.js';
import { everythingServer, probeServer } from '../helpers/server-entries.js';
import { eventsOf, messagesOf, SseReader, type SseEvent } from '../helpers/sse.js';
import { connect } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { withTimeout } from '../helpers/waits.js';

const FX = 'fx';

function hub(extra: Partial<Parameters<typeof startHub>[0]> = {}): Promise<TestHub> {
  return startHub({ servers: { [FX]: everythingServer(), probe: probeServer(), stateless: everythingServer({ stateless: true }) }, ...extra });
}

const SAMPLING_ANSWER = (id: JsonRpcMessage['id'], text: string): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id: id!,
  result: { role: 'assistant', content: { type: 'text', text }, model: 'test-model', stopReason: 'endTurn' },
});

/** P11: an event id the session does not hold is answered at once: 404, a JSON-RPC -32600 naming it. */
async function expectUnknownEventId(res: Response, lastEventId: string): Promise<void> {
  expect(res.status).toBe(404);
  const body = await jsonRpcErrorOf(res);
  expect(body.error).toEqual({ code: -32600, message: `Last-Event-ID '${lastEventId}' is unknown or no longer stored for this session` });
}

describe('B. streams and resumability', () => {
  describe('P9: a request stream carries related messages first, then the response, then ends', () => {
    it('P9: progress notifications precede the response on the request stream, which then ends', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const res = await client.post(toolCall(3, 'test_tool_with_progress', {}, { progressToken: 'tok-p9' }));
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = new SseReader(res.body!);
      const items = await withTimeout(reader.rest(), 10_000, 'the request stream to end');
      const messages = messagesOf(items);
      const last = messages[messages.length - 1]!;
      expect(last.id).toBe(3);
      expect(toolText(last)).toContain('tok-p9');
      const progress = messages.filter((m) => m.method === 'notifications/progress');
      expect(progress).toHaveLength(3);
      for (const p of progress) expect(p.params?.progressToken).toBe('tok-p9');
      expect(reader.ended).toBe(true);
    });

    it('P9: log notifications during a call arrive on its stream before the response', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const out = await client.callTool('test_tool_with_logging');
      const kinds = out.messages.map((m) => m.method ?? 'response');
      expect(kinds).toEqual(['notifications/message', 'notifications/message', 'notifications/message', 'response']);
    });

    it('P9: a server request (sampling) arrives on the request stream; after the client answers, the response follows and the stream ends', async () => {
      const h = await hub();
      const client = await connect(h, FX, { capabilities: { sampling: {} } });
      const res = await client.post(toolCall(11, 'test_sampling', { prompt: 'say hi' }));
      const reader = new SseReader(res.body!);
      const ask = await reader.nextMessage();
      expect(ask?.message.method).toBe('sampling/createMessage');
      const ack = await client.post(SAMPLING_ANSWER(ask!.message.id, 'hi there'));
      expect(ack.status).toBe(202);
      const done = await reader.nextMessage();
      expect(done?.message.id).toBe(11);
      expect(toolText(done!.message)).toBe('LLM response: hi there');
      expect(await reader.next()).toBeUndefined();
    });

    it('P9: a 2025-11-25 session gets a priming event (id, empty data) first on a request stream', async () => {
      const h = await hub();
      const client = await connect(h, FX, { protocolVersion: '2025-11-25' });
      // Progress comes before the answer, so the answer goes on a stream (a lone answer is JSON: json-answers.test.ts).
      const out = await client.callTool('test_tool_with_progress', {}, { progressToken: 'prime' });
      expect(out.http.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = eventsOf(out.items);
      expect(events[0]!.id).toBeTruthy();
      expect(events[0]!.data).toBe('');
      expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ id: out.response.id });
    });

    for (const version of ['2025-06-18', '2025-03-26']) {
      it(`P9: a ${version} session gets no priming event`, async () => {
        const h = await hub();
        const client = await connect(h, FX, { protocolVersion: version });
        expect(client.protocolVersion).toBe(version);
        const out = await client.callTool('test_tool_with_progress', {}, { progressToken: 'no-prime' });
        const events = eventsOf(out.items);
        expect(events.length).toBeGreaterThan(0);
        for (const e of events) expect(e.data.trim()).not.toBe('');
      });
    }
  });

  describe('P10: the standalone GET stream', () => {
    it('P10: GET with Accept: text/event-stream → 200 SSE with headers flushed before any event', async () => {
      const h = await hub();
      // 2025-06-18: no priming event, so nothing is written on the stream until a message comes.
      const client = await connect(h, FX, { protocolVersion: '2025-06-18' });
      const res = await withTimeout(client.get(), 5000, 'the GET stream headers (they must not wait for a first event)');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await res.body?.cancel();
    });

    it('P10: GET without Accept: text/event-stream → 406', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const res = await client.get({ accept: 'application/json' });
      expect(res.status).toBe(406);
      await jsonRpcErrorOf(res);
    });

    it('P10: responses never go on the GET stream; related notifications go on their request stream', async () => {
      const h = await hub();
      const client = await connect(h, FX, { protocolVersion: '2025-06-18' });
      const g = await client.get();
      const getReader = new SseReader(g.body!);
      const echo = await client.callTool('echo', { text: 'only on the POST stream' });
      expect(toolText(echo.response)).toBe('only on the POST stream');
      const logged = await client.callTool('test_tool_with_logging');
      expect(logged.messages.filter((m) => m.method === 'notifications/message')).toHaveLength(3);
      // End the session: the GET stream ends, and everything it carried can be inspected.
      const gone = await client.delete();
      expect(gone.status).toBe(200);
      const onGet = messagesOf(await withTimeout(getReader.rest(), 5000, 'the GET stream to end after DELETE'));
      expect(onGet.filter(isResponse)).toEqual([]);
      expect(onGet.filter((m) => m.method === 'notifications/message')).toEqual([]);
    });

    it('P10: every message goes on exactly one stream, never broadcast (two concurrent calls + GET stream)', async () => {
      const h = await hub();
      const client = await connect(h, FX, { protocolVersion: '2025-06-18' });
      const g = await client.get();
      const getReader = new SseReader(g.body!);
      const [a, b] = await Promise.all([
        client.callTool('test_tool_with_progress', {}, { progressToken: 'A' }),
        client.callTool('test_tool_with_progress', {}, { progressToken: 'B' }),
      ]);
      const [la, lb] = await Promise.all([client.callTool('test_tool_with_logging'), client.callTool('test_tool_with_logging')]);
      await client.delete();
      const onGet = messagesOf(await withTimeout(getReader.rest(), 5000, 'the GET stream to end after DELETE'));
      // Progress follows its own request, exactly three times each.
      expect(a.messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params?.progressToken)).toEqual(['A', 'A', 'A']);
      expect(b.messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params?.progressToken)).toEqual(['B', 'B', 'B']);
      expect(a.messages.filter(isResponse)).toHaveLength(1);
      expect(b.messages.filter(isResponse)).toHaveLength(1);
      // Log messages have no affinity on stdio; but each of the six goes on exactly one stream.
      const logs = [...la.messages, ...lb.messages, ...onGet].filter((m) => m.method === 'notifications/message');
      expect(logs).toHaveLength(6);
      expect(onGet.filter((m) => m.method === 'notifications/progress' || isResponse(m))).toEqual([]);
    });
  });

  describe('P11: event ids and resumption', () => {
    it('P11: event ids are unique within a session and carry their stream', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const outs = await Promise.all([1, 2, 3, 4].map((n) => client.callTool('test_tool_with_progress', {}, { progressToken: `t${n}` })));
      const ids = outs.flatMap((o) => eventsOf(o.items).map((e) => e.id));
      expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      // Events of one stream share a stream part; different streams have different ones.
      const prefix = (id: string): string => id.slice(0, id.lastIndexOf('-'));
      const perStream = outs.map((o) => new Set(eventsOf(o.items).map((e) => prefix(e.id!))));
      for (const s of perStream) expect(s.size).toBe(1);
      expect(new Set(perStream.map((s) => [...s][0])).size).toBe(outs.length);
    });

    it('P11: GET + Last-Event-ID replays only that stream’s later events, including its response, then ends', async () => {
      const h = await hub();
      const client = await connect(h, FX, { protocolVersion: '2025-11-25', capabilities: { sampling: {} } });
      const abort = new AbortController();
      const res = await client.post(toolCall(21, 'test_sampling', { prompt: 'resume me' }), { signal: abort.signal });
      const reader = new SseReader(res.body!);
      const priming = await reader.nextEvent();
      expect(priming?.id).toBeTruthy();
      expect(priming?.data).toBe('');
      const ask = await reader.nextMessage();
      expect(ask?.message.method).toBe('sampling/createMessage');
      const askEventId = ask!.event.id!;
      // The client's connection drops while the call is still in flight.
      abort.abort();
      await reader.cancel();
      // Another stream of the same session runs to completion meanwhile.
      const other = await client.callTool('echo', { text: 'other stream' });
      expect(toolText(other.response)).toBe('other stream');
      // The client answers the sampling request; the tool's response is stored for the dropped stream.
      const ack = await client.post(SAMPLING_ANSWER(ask!.message.id, 'resumed'));
      expect(ack.status).toBe(202);
      const resumed = await client.get({ lastEventId: askEventId });
      expect(resumed.status).toBe(200);
      expect(resumed.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const items = await withTimeout(new SseReader(resumed.body!).rest(), 10_000, 'the resumed stream to end after replaying its response');
      const messages = messagesOf(items);
      expect(messages.map((m) => m.id)).toEqual([21]);
      expect(toolText(messages[0]!)).toBe('LLM response: resumed');
      const streamOf = (id: string): string => id.slice(0, id.lastIndexOf('-'));
      for (const e of eventsOf(items)) if (e.data !== '') expect(streamOf(e.id!)).toBe(streamOf(askEventId));
    });

    it('P11: resuming from the priming event replays the server request and then the response', async () => {
      const h = await hub();
      const client = await connect(h, FX, { protocolVersion: '2025-11-25', capabilities: { sampling: {} } });
      const abort = new AbortController();
      const res = await client.post(toolCall(22, 'test_sampling', { prompt: 'again' }), { signal: abort.signal });
      const reader = new SseReader(res.body!);
      const priming = (await reader.nextEvent()) as SseEvent;
      const ask = await reader.nextMessage();
      abort.abort();
      await reader.cancel();
      // Resume before answering: the stored server request is replayed, then the stream stays open.
      const resumed = await client.get({ lastEventId: priming.id! });
      expect(resumed.status).toBe(200);
      const r2 = new SseReader(resumed.body!);
      const replayed = await r2.nextMessage();
      expect(replayed?.message).toMatchObject({ method: 'sampling/createMessage', id: ask!.message.id });
      expect(replayed?.event.id).toBe(ask!.event.id);
      await client.post(SAMPLING_ANSWER(ask!.message.id, 'second'));
      const done = await r2.nextMessage();
      expect(done?.message.id).toBe(22);
      expect(await r2.next()).toBeUndefined();
    });

    for (const [name, lastEventId] of [
      ['an unknown stream', '9999-1'],
      ['a malformed id', 'not-an-event-id-at-all'],
      ['garbage', '%%%'],
      ['a future event of the GET stream', '0-999'],
    ] as const) {
      it(`P11: Last-Event-ID of ${name} → 404 JSON-RPC error at once, never a hang`, async () => {
        const h = await hub();
        const client = await connect(h, FX);
        const res = await withTimeout(client.get({ lastEventId }), 5000, 'the answer to an unknown Last-Event-ID');
        await expectUnknownEventId(res, lastEventId);
      });
    }

    it('P11: an event id of a stream that completed (and was dropped) → 404 at once', async () => {
      const h = await hub();
      const client = await connect(h, FX);
      const out = await client.callTool('test_tool_with_progress', {}, { progressToken: 'done' });
      const last = eventsOf(out.items).at(-1)!;
      const res = await withTimeout(client.get({ lastEventId: last.id! }), 5000, 'the answer to an evicted Last-Event-ID');
      await expectUnknownEventId(res, last.id!);
    });

    it('P11: an event id of another session is not honoured', async () => {
      const h = await hub();
      const a = await connect(h, FX, { capabilities: { sampling: {} } });
      const b = await connect(h, FX);
      const res = await a.post(toolCall(1, 'test_sampling', { prompt: 'x' }));
      const reader = new SseReader(res.body!);
      const ask = await reader.nextMessage();
      // Session b asks for session a's stream. An event id names a stream of its own session; b
      // sent no request, so it holds only its GET stream ('0'), and a's request stream is not it.
      expect(ask!.event.id).toMatch(/^[1-9]\d*-\d+$/);
      const stolen = await b.get({ lastEventId: ask!.event.id! });
      await expectUnknownEventId(stolen, ask!.event.id!);
      // a's stream was not taken over: it still carries a's answer to a.
      await a.post(SAMPLING_ANSWER(ask!.message.id, 'private'));
      const rest = messagesOf(await withTimeout(reader.rest(), 10_000, "the rest of a's stream"));
      expect(rest.find((m) => m.id === 1)?.result).toBeDefined();
    });
  });

  describe('P12: what a client relies on from the server side', () => {
    it('P12: a 2025-11-25 stream gives the client an event id to send as Last-Event-ID before any message', async () => {
      const h = await hub();
      const client = await connect(h, FX, { protocolVersion: '2025-11-25' });
      const g = await client.get();
      const firstReader = new SseReader(g.body!);
      const first = await firstReader.nextEvent();
      expect(first?.id).toBeTruthy();
      // That id is accepted for resumption.
      await firstReader.cancel();
      const again = await client.get({ lastEventId: first!.id! });
      expect(again.status).toBe(200);
      await again.body?.cancel();
    });

    it('P12: GET on a server that offers no GET stream answers 405 (a client must tolerate it)', async () => {
      const h = await hub();
      const res = await fetch(h.mcpUrl('stateless'), { headers: { ...h.authHeader(), Accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      await jsonRpcErrorOf(res);
    });
  });

  describe('P13: keep-alives', () => {
    it('P13: an idle GET stream gets a keep-alive comment', async () => {
      const h = await hub({ keepAliveMs: 100, tickMs: 25 });
      const client = await connect(h, FX);
      const g = await client.get();
      const reader = new SseReader(g.body!);
      for (;;) {
        const item = await reader.next(5000);
        expect(item).toBeDefined();
        if (item!.kind === 'comment') {
          expect(item!.text).toContain('keepalive');
          break;
        }
      }
    });

    it('P13: a request stream waiting on a slow call gets keep-alive comments, then its response', async () => {
      const h = await hub({ keepAliveMs: 100, tickMs: 25 });
      const client = await connect(h, FX, { capabilities: { sampling: {} } });
      const res = await client.post(toolCall(1, 'test_sampling', { prompt: 'slow' }));
      const reader = new SseReader(res.body!);
      const ask = await reader.nextMessage();
      // The server now waits for the client: the stream is idle until it answers.
      let comments = 0;
      while (comments < 2) {
        const item = await reader.next(5000);
        expect(item).toBeDefined();
        if (item!.kind === 'comment' && item!.text.includes('keepalive')) comments++;
      }
      await client.post(SAMPLING_ANSWER(ask!.message.id, 'late'));
      const done = await reader.nextMessage();
      expect(toolText(done!.message)).toBe('LLM response: late');
    });

    it('P13: the default keep-alive interval is at most 30 s', async () => {
      const h = await hub({ tickMs: 25 });
      const client = await connect(h, FX);
      const g = await client.get();
      const reader = new SseReader(g.body!);
      for (;;) {
        const item = await reader.next(31_000);
        expect(item).toBeDefined();
        if (item!.kind === 'comment') break;
      }
    }, 40_000);
  });
});
