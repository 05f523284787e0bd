import { describe, expect, it } from 'vitest';
import { SseParser, type SseEvent } from './sse-parser.js';

function parse(chunks: string[]): { events: SseEvent[]; parser: SseParser } {
  const events: SseEvent[] = [];
  const parser = new SseParser((e) => events.push(e));
  for (const c of chunks) parser.push(c);
  return { events, parser };
}

describe('SseParser', () => {
  it('dispatches message events with their id, across arbitrary chunk splits', () => {
    const text = 'id: s-1\nevent: message\ndata: {"a":1}\n\nid: s-2\ndata: {"b":2}\n\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const { events, parser } = parse([text.slice(0, cut), text.slice(cut)]);
      expect(events).toEqual([
        { event: 'message', data: '{"a":1}', id: 's-1' },
        { event: 'message', data: '{"b":2}', id: 's-2' },
      ]);
      expect(parser.lastEventId).toBe('s-2');
    }
  });

  it('accepts CRLF and CR line endings, even split between chunks', () => {
    expect(parse(['data: x\r\n\r\n']).events.map((e) => e.data)).toEqual(['x']);
    expect(parse(['data: x\r', '\n\r', '\n']).events.map((e) => e.data)).toEqual(['x']);
    expect(parse(['data: x\r\rdata: y\r\r']).events.map((e) => e.data)).toEqual(['x', 'y']);
  });

  it('joins multi-line data and ignores comments (keep-alives)', () => {
    const { events } = parse([': keepalive\n\ndata: line1\ndata: line2\n\n']);
    expect(events).toEqual([{ event: 'message', data: 'line1\nline2', id: undefined }]);
  });

  it('keeps retry advice and the id of a priming event (id, empty data)', () => {
    const { events, parser } = parse(['id: event-1\nretry: 500\ndata: \n\n']);
    expect(events).toEqual([{ event: 'message', data: '', id: 'event-1' }]);
    expect(parser.retryMs).toBe(500);
    expect(parser.lastEventId).toBe('event-1');
  });

  it('ignores an invalid retry and an id containing NUL; an empty id resets it', () => {
    const { parser } = parse(['retry: soon\nid: a\0b\ndata: x\n\n']);
    expect(parser.retryMs).toBeUndefined();
    expect(parser.lastEventId).toBeUndefined();
    const reset = parse(['id: 1\ndata: x\n\nid\ndata: y\n\n']);
    expect(reset.events.map((e) => e.id)).toEqual(['1', undefined]);
  });

  it('reports other event types by name', () => {
    expect(parse(['event: endpoint\ndata: /messages?s=1\n\n']).events[0]?.event).toBe('endpoint');
  });

  it('refuses to buffer a line without end past its cap', () => {
    const parser = new SseParser(() => undefined, 10);
    expect(() => parser.push('data: 0123456789')).toThrow(/longer than 10/);
  });

  it('parses a multi-MiB event fed in small chunks, looking at each character a bounded number of times', () => {
    // A screenshot-sized tool result: one `data:` line of many MiB, arriving 64 KiB at a time.
    const run = (mib: number): { parser: SseParser; input: number; events: SseEvent[] } => {
      const payload = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        result: { blob: 'x'.repeat(mib * 1024 * 1024) },
      });
      const text = `id: big\ndata: ${payload}\n\ndata: after\r\n\r\n`;
      const events: SseEvent[] = [];
      const parser = new SseParser((e) => events.push(e));
      for (let at = 0; at < text.length; at += 64 * 1024)
        parser.push(text.slice(at, at + 64 * 1024));
      expect(events.map((e) => e.data.length)).toEqual([payload.length, 'after'.length]);
      expect(events[0]!.data === payload).toBe(true);
      expect(events[0]!.id).toBe('big');
      return { parser, input: text.length, events };
    };
    const small = run(4);
    const large = run(16);
    // Searching for `\n` and for `\r` each looks at a character at most once: never more than 2×
    // the input, and four times the input costs four times the work (a quadratic scan: ~16×).
    expect(small.parser.scannedChars).toBeLessThanOrEqual(2 * small.input);
    expect(large.parser.scannedChars).toBeLessThanOrEqual(2 * large.input);
    expect(large.parser.scannedChars / small.parser.scannedChars).toBeLessThan(4.5);
  });

  it('stays linear for many small events in one large chunk', () => {
    const text = 'data: {"n":1}\n\n'.repeat(100_000);
    const events: SseEvent[] = [];
    const parser = new SseParser((e) => events.push(e));
    parser.push(text);
    expect(events).toHaveLength(100_000);
    expect(parser.scannedChars).toBeLessThanOrEqual(2 * text.length);
  });

  it('keeps a line that spans many chunks, and a CRLF split at every position', () => {
    const text = 'id: 7\r\ndata: ' + 'ab'.repeat(50) + '\r\n\r\n';
    for (let size = 1; size <= 7; size++) {
      const chunks: string[] = [];
      for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
      const { events } = parse(chunks);
      expect(events, `chunks of ${size}`).toEqual([
        { event: 'message', data: 'ab'.repeat(50), id: '7' },
      ]);
    }
  });

  it('remembers an id sent in an event without data (resumption needs it, P12)', () => {
    const { events, parser } = parse(['id: only-id\n\n']);
    expect(events).toEqual([]);
    expect(parser.lastEventId).toBe('only-id');
  });
});
