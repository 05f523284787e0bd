/**
 * A large line's own bytes go with it from the reader to the HTTP reply (wire-bytes.ts): the
 * reply writes them instead of encoding the text again, and nothing else ever gets them. Real
 * HTTP on loopback for the reply.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpReply } from '../hub/http-reply.js';
import { splice, topLevelIdEdits } from './json-splice.js';
import { LineReader } from './line-reader.js';
import { bytesOf, handedOn, handingOn, piecesFor, replaceIdKeepingBytes, respliced, WIRE_BYTES_MIN } from './wire-bytes.js';

const big = (fill: string) => `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"${fill.repeat(WIRE_BYTES_MIN)}"}]}}`;

/** What `piecesFor` said for each line, asked while the line was being handed on. */
function readLines(chunks: Buffer[], stamp = true) {
  const seen: Array<{ text: string; pieces: readonly Buffer[] | undefined }> = [];
  const reader = new LineReader(16 * 1024 * 1024, { line: (text) => seen.push({ text, pieces: piecesFor(text) }), oversize: () => {} }, stamp);
  for (const c of chunks) reader.push(c);
  return seen;
}

afterEach(() => handedOn());

describe('wire bytes: a large line carries the bytes it was read from', () => {
  it('a large ASCII line from a server: its bytes, exactly, while it is handed on; nothing after', () => {
    const line = big('x');
    const bytes = Buffer.from(line + '\n');
    // Split across chunks as a pipe delivers it: the reader joins them once.
    const seen = readLines([bytes.subarray(0, 1000), bytes.subarray(1000, 70_000), bytes.subarray(70_000)]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.pieces).toHaveLength(1);
    expect(seen[0]!.pieces![0]!.equals(Buffer.from(line))).toBe(true);
    expect(piecesFor(line)).toBeUndefined();
  });

  it('a CRLF line: the bytes end where the text does (no \\r)', () => {
    const line = big('y');
    const seen = readLines([Buffer.from(line + '\r\n')]);
    expect(seen[0]!.text).toBe(line);
    expect(seen[0]!.pieces![0]!.toString('latin1')).toBe(line);
  });

  it('carries nothing for a short line, a non-ASCII line, or a reader that is not a server\'s stdout', () => {
    expect(readLines([Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}\n')])[0]!.pieces).toBeUndefined();
    expect(readLines([Buffer.from(big('é') + '\n')])[0]!.pieces).toBeUndefined();
    expect(readLines([Buffer.from(big('x') + '\n')], false)[0]!.pieces).toBeUndefined();
  });

  it('a text the hub changed has no bytes; a splice it declares has the bytes spliced alike', () => {
    const raw = big('z');
    const bytes = Buffer.from(raw);
    handingOn(raw, bytes);
    expect(piecesFor(raw.replace('"id":7', '"id":8'))).toBeUndefined();
    // What a shared or 2026-07-28 child's answer goes through to get the client's id back.
    const spliced = replaceIdKeepingBytes(raw, JSON.stringify('client-1'))!;
    expect(spliced).toBe(raw.replace('"id":7', '"id":"client-1"'));
    const pieces = piecesFor(spliced)!;
    expect(Buffer.concat(pieces).equals(Buffer.from(spliced))).toBe(true);
    // The pieces around the edit are views of the line's own bytes, not copies.
    expect(pieces[0]!.buffer).toBe(bytes.buffer);
    expect(piecesFor(raw)).toBeUndefined();
    // The splice is now the line handed on (in pieces: no one buffer), and after the hand-over, nothing is.
    expect(bytesOf(spliced)).toBeUndefined();
    handedOn();
    expect(piecesFor(spliced)).toBeUndefined();
  });

  it('bytesOf: the one buffer of the line being handed on, only while it is', () => {
    const raw = big('w');
    const bytes = Buffer.from(raw);
    handingOn(raw, bytes);
    expect(bytesOf(raw)).toBe(bytes);
    expect(bytesOf(raw.slice(1))).toBeUndefined();
    handedOn();
    expect(bytesOf(raw)).toBeUndefined();
  });
});

describe('HttpReply: a large JSON answer is written as the reader\'s bytes', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  /** A loopback server whose one answer is `json`, written by HttpReply while `bytes` are handed on. */
  async function serve(json: string, pieces: () => void): Promise<{ url: string; ended: unknown[] }> {
    const ended: unknown[] = [];
    const server = createServer((_req, res: ServerResponse) => {
      const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
      (res as unknown as { end: (...a: unknown[]) => ServerResponse }).end = (...a: unknown[]) => {
        ended.push(a[0]);
        return end(...a);
      };
      pieces();
      try {
        new HttpReply(res, {}).final(json, 200);
      } finally {
        handedOn();
      }
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    close = () => server.close();
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, ended };
  }

  it('per-session: the very buffer the line came in is the body; the length is its length', async () => {
    const json = big('a');
    const bytes = Buffer.from(json);
    const { url, ended } = await serve(json, () => handingOn(json, bytes));
    const res = await fetch(url);
    const body = await res.text();
    expect(body).toBe(json);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(ended[0]).toBe(bytes);
  });

  it('shared: the spliced pieces make the body, with the client\'s id', async () => {
    const raw = big('b');
    const edits = topLevelIdEdits(raw, '"c-9"')!;
    const json = splice(raw, edits);
    const { url, ended } = await serve(json, () => {
      handingOn(raw, Buffer.from(raw));
      respliced(raw, json, edits);
    });
    const res = await fetch(url);
    const body = await res.text();
    expect(body).toBe(json);
    expect((JSON.parse(body) as { id: unknown }).id).toBe('c-9');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(json)));
    // Written piece by piece, then an empty end: not the text encoded again.
    expect(ended[0]).toBeUndefined();
  });

  it('a text with no bytes handed on is encoded once, into the body beside the headers', async () => {
    const json = big('c');
    const { url, ended } = await serve(json, () => {});
    const res = await fetch(url);
    expect(await res.text()).toBe(json);
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(json)));
    // A buffer, not the string: node:http would join a string to its header block (a copy of it all).
    expect(Buffer.isBuffer(ended[0]) && (ended[0] as Buffer).equals(Buffer.from(json))).toBe(true);
  });
});
