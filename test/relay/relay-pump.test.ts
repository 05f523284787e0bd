/**
 * What the relay's byte pump (its own HTTP/1.1 on kept-alive sockets, messages scanned rather
 * than parsed: src/main/relay/hub-http.ts, message-scan.ts) must keep doing, with real relay
 * processes from the built CLI: a 50 MB answer through a real hub, whole and on one line; a server
 * request in the middle of a call (sampling) both ways; stdin closing while a call is open; and an
 * SSE stream cut mid-call, resumed with Last-Event-ID, against a scripted hub on loopback (a real
 * hub does not cut its streams on cue). Both eras, flow control, hub restarts and forgotten
 * sessions are relay-modern, relay-flow and relay-hub's.
 */
import { writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../helpers/loopback-server.js';
import { everythingServer } from '../helpers/server-entries.js';
import { startHub } from '../helpers/test-hub.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/waits.js';
import { initialize, requireBuild, spawnRelay, textOf } from './relay-helpers.js';

beforeAll(requireBuild);

const CLIENT = { name: 'relay-pump-test', version: '1' };

describe('the relay as a byte pump', () => {
  it('passes a 50 MB answer through whole, on one line', async () => {
    const hub = await startHub({ servers: { fx: everythingServer() } });
    const relay = spawnRelay(hub.dataDir, ['fx']);
    relay.write(initialize(0));
    relay.write({ method: 'notifications/initialized' });
    const bytes = 50 * 1000 * 1000;
    relay.write({ id: 1, method: 'tools/call', params: { name: 'big', arguments: { bytes } } });
    const text = textOf(await relay.answer(1, 120_000));
    expect(text.length).toBe(bytes);
    expect(/^x+$/.test(text)).toBe(true);
    expect(relay.junk).toEqual([]);
  }, 180_000);

  it('carries a server request in the middle of a call (sampling) to the client and its answer back', async () => {
    const hub = await startHub({ servers: { fx: everythingServer() } });
    const relay = spawnRelay(hub.dataDir, ['fx']);
    relay.write({ id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: CLIENT } });
    relay.write({ method: 'notifications/initialized' });
    relay.write({ id: 1, method: 'tools/call', params: { name: 'test_sampling', arguments: { prompt: 'ping?' } } });
    const request = await waitFor(() => relay.messages.find((m) => m.method === 'sampling/createMessage'), 'the sampling request on stdout', 20_000);
    expect(relay.messages.some((m) => m.id === 1)).toBe(false);
    relay.write({ id: request.id, result: { role: 'assistant', content: { type: 'text', text: 'pong' }, model: 'test-model', stopReason: 'endTurn' } });
    expect(textOf(await relay.answer(1))).toBe('LLM response: pong');
  }, 60_000);

  it('on stdin EOF with a call still open, delivers its answer, deletes the session and exits 0', async () => {
    const hub = await startHub({ servers: { fx: everythingServer() } });
    const relay = spawnRelay(hub.dataDir, ['fx']);
    relay.write(initialize(0));
    relay.write({ method: 'notifications/initialized' });
    await relay.answer(0);
    relay.write({ id: 1, method: 'tools/call', params: { name: 'sleep', arguments: { ms: 500 } } });
    relay.child.stdin!.end();
    expect(textOf(await relay.answer(1))).toBe('slept');
    expect(await relay.exited()).toBe(0);
    await waitFor(() => hub.engine.hub.sessions.size === 0, 'the session to be deleted');
  }, 60_000);

  it('resumes an SSE answer cut mid-call with Last-Event-ID, on a fresh connection', async () => {
    const home = await tempDir('patchbay-relay-pump-');
    const seen: Array<{ method: string; lastEventId: string | undefined; session: string | undefined }> = [];
    let cut = 0;
    const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/health') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
        const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: number; method?: string }) : undefined;
        const lastEventId = req.headers['last-event-id'] as string | undefined;
        seen.push({ method: req.method ?? '', lastEventId, session: req.headers['mcp-session-id'] as string | undefined });
        if (req.method === 'DELETE') return void res.writeHead(200).end();
        if (req.method === 'GET' && lastEventId === undefined) return void res.writeHead(405).end();
        if (req.method === 'GET') {
          // The resumption: the answer the cut stream never carried.
          res.writeHead(200, { 'Content-Type': 'text/event-stream' });
          return void res.end(`id: ev-2\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"resumed"}]}}\n\n`);
        }
        if (body?.method === 'initialize') {
          res.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'sid-pump' });
          return void res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'scripted', version: '1' } } }));
        }
        if (body?.id === undefined) return void res.writeHead(202).end();
        // The call's stream: a progress event with an id, the server's retry advice, then the
        // connection is cut before the answer.
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write(`retry: 50\nid: ev-1\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"half way"}}\n\n`, () => {
          cut++;
          setTimeout(() => res.socket?.destroy(), 20);
        });
      });
    });
    const port = await listenOnLoopback(server);
    // A "hub" the relay trusts: this process's pid (alive), loopback, answering /health.
    writeFileSync(path.join(home, 'hub.json'), JSON.stringify({ pid: process.pid, port, url: `http://127.0.0.1:${port}`, startedAt: new Date().toISOString(), version: 'test' }));
    writeFileSync(path.join(home, 'hub-token'), 'a'.repeat(64), { mode: 0o600 });

    const relay = spawnRelay(home, ['scripted', '--no-start']);
    relay.write(initialize(0));
    relay.write({ method: 'notifications/initialized' });
    relay.write({ id: 1, method: 'tools/call', params: { name: 'anything', arguments: {} } });
    expect(textOf(await relay.answer(1))).toBe('resumed');
    expect(cut).toBe(1);
    // The notification that came before the cut reached the client once, before the answer.
    const note = relay.messages.findIndex((m) => m.method === 'notifications/message');
    expect(note).toBeGreaterThanOrEqual(0);
    expect(relay.messages.filter((m) => m.method === 'notifications/message')).toHaveLength(1);
    expect(note).toBeLessThan(relay.messages.findIndex((m) => m.id === 1));
    const resume = seen.find((s) => s.method === 'GET' && s.lastEventId !== undefined);
    expect(resume).toMatchObject({ lastEventId: 'ev-1', session: 'sid-pump' });
    relay.child.stdin!.end();
    expect(await relay.exited()).toBe(0);
    await waitFor(() => seen.some((s) => s.method === 'DELETE'), 'the DELETE of the session');
  }, 60_000);
});
