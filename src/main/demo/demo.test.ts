// The demo server's MCP, in process (its stdio framing fed by hand): every kind of thing it
// shows a new user — a failing tool, elicitation, sampling, progress, an image, completions.
import { describe, expect, it } from 'vitest';
import { createDemoServer } from './demo-handler.js';

type Message = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function demo() {
  const out: Message[] = [];
  const waiters: Array<() => void> = [];
  const { peer, stop } = createDemoServer((line) => {
    out.push(JSON.parse(line) as Message);
    for (const w of waiters.splice(0)) w();
  });
  const next = async (match: (m: Message) => boolean): Promise<Message> => {
    for (;;) {
      const found = out.find(match);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  let id = 0;
  const request = (method: string, params: Message = {}): Promise<Message> => {
    const n = ++id;
    peer.push(JSON.stringify({ jsonrpc: '2.0', id: n, method, params }) + '\n');
    return next((m) => m.id === n && !('method' in m));
  };
  return { peer, out, next, request, stop };
}

describe('demo server', () => {
  it('answers as an MCP server: tools of every kind, resources, prompts with completions', async () => {
    const d = demo();
    try {
      const init = await d.request('initialize', { protocolVersion: '2025-06-18', capabilities: { elicitation: {}, sampling: {} }, clientInfo: { name: 't', version: '1' } });
      expect(init.result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'patchbay-demo' } });
      const tools = await d.request('tools/list');
      expect(tools.result.tools.map((t: Message) => t.name)).toEqual(['echo', 'add', 'book_table', 'summarize', 'long_task', 'chart', 'read_secret']);

      expect((await d.request('tools/call', { name: 'read_secret', arguments: {} })).result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('Access denied') }] });
      expect((await d.request('tools/call', { name: 'nope' })).result).toMatchObject({ isError: true });
      expect((await d.request('tools/call', { name: 'add', arguments: { a: 2, b: 3 } })).result).toMatchObject({ structuredContent: { sum: 5 } });
      const chart = await d.request('tools/call', { name: 'chart', arguments: { values: [1, 2] } });
      expect(Buffer.from(chart.result.content[0].data, 'base64').subarray(1, 4).toString()).toBe('PNG');

      // Elicitation: the server asks the client, then uses the answer.
      const booking = d.request('tools/call', { name: 'book_table', arguments: {} });
      const ask = await d.next((m) => m.method === 'elicitation/create');
      expect(ask.params.requestedSchema.required).toEqual(['name', 'guests']);
      d.peer.push(JSON.stringify({ jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { name: 'Ada', guests: 3, time: '21:00' } } }) + '\n');
      expect((await booking).result.content[0].text).toBe('Booked for Ada: 3 guest(s) at 21:00.');

      // Sampling.
      const summary = d.request('tools/call', { name: 'summarize', arguments: { text: 'long text' } });
      const sample = await d.next((m) => m.method === 'sampling/createMessage');
      d.peer.push(JSON.stringify({ jsonrpc: '2.0', id: sample.id, result: { role: 'assistant', model: 'm1', content: { type: 'text', text: 'short' } } }) + '\n');
      expect((await summary).result.content[0].text).toBe('Summary (m1): short');

      // Progress on the caller's token.
      await d.request('tools/call', { name: 'long_task', arguments: { steps: 3, stepMs: 10 }, _meta: { progressToken: 'p1' } });
      expect(d.out.filter((m) => m.method === 'notifications/progress').map((m) => [m.params.progressToken, m.params.progress, m.params.total])).toEqual([
        ['p1', 1, 3],
        ['p1', 2, 3],
        ['p1', 3, 3],
      ]);

      expect((await d.request('resources/read', { uri: 'demo://notes/playground' })).result.contents[0].text).toContain('playground');
      expect((await d.request('completion/complete', { ref: { type: 'ref/prompt', name: 'review_code' }, argument: { name: 'language', value: 'ty' } })).result.completion.values).toEqual(['typescript']);
      expect((await d.request('completion/complete', { ref: { type: 'ref/resource', uri: 'demo://notes/{topic}' }, argument: { name: 'topic', value: 'p' } })).result.completion.values).toEqual(['playground', 'profiles']);
      expect((await d.request('prompts/get', { name: 'review_code', arguments: { language: 'go', code: 'x := 1' } })).result.messages[0].content.text).toContain('```go');
      expect((await d.request('bogus/method')).error).toMatchObject({ code: -32601 });
    } finally {
      d.stop();
    }
  });
});
