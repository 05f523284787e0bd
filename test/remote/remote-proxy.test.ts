/**
 * HTTP(S)_PROXY and NO_PROXY for remote servers: the engine's requests to a remote go through the
 * configured proxy (a real forward proxy on loopback here), unless NO_PROXY exempts the host.
 */
import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createRemoteFetch, proxySettings } from '../../src/main/core/upstream/remote-fetch.js';
import { onCleanup } from '../helpers/cleanup.js';
import { connect } from '../helpers/test-client.js';
import { REMOTE_HTTP_SERVER, startFixture, startRemoteHub } from './remote-harness.js';

/** A forward proxy (CONNECT tunnels and absolute-form requests) that records what it relayed. */
async function startProxy(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const upstream = http.request(req.url!, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, seen };
}

function setEnv(values: Record<string, string>): void {
  const saved = Object.fromEntries(Object.keys(values).map((k) => [k, process.env[k]]));
  Object.assign(process.env, values);
  onCleanup(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
}

describe('proxies for remote servers', () => {
  it('reads HTTP_PROXY, HTTPS_PROXY and NO_PROXY (either case); none set: no proxy', () => {
    expect(proxySettings({})).toBeUndefined();
    expect(proxySettings({ https_proxy: 'http://p:1', NO_PROXY: 'localhost' })).toEqual({ httpsProxy: 'http://p:1', noProxy: 'localhost' });
    expect(proxySettings({ HTTP_PROXY: ' http://p:2 ' })).toEqual({ httpProxy: 'http://p:2' });
  });

  it('the engine reaches a remote server through HTTP_PROXY', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const proxy = await startProxy();
    setEnv({ HTTP_PROXY: proxy.url, NO_PROXY: '' });
    const hub = await startRemoteHub({ servers: { r: { url: remote.url } } });
    const client = await connect(hub, 'r');
    expect(await client.tool('echo', { text: 'proxied' })).toBe('proxied');
    expect(proxy.seen.some((line) => line.includes(`127.0.0.1:${remote.port}`))).toBe(true);
  });

  it('NO_PROXY exempts a host', async () => {
    const remote = await startFixture(REMOTE_HTTP_SERVER);
    const proxy = await startProxy();
    const fetchDirect = createRemoteFetch({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    const res = await fetchDirect(`${remote.origin}/_debug/requests`);
    expect(res.status).toBe(200);
    await res.text();
    expect(proxy.seen).toEqual([]);
    const viaProxy = createRemoteFetch({ HTTP_PROXY: proxy.url });
    const res2 = await viaProxy(`${remote.origin}/_debug/requests`);
    expect(res2).toBeInstanceOf(Response);
    await res2.text();
    expect(proxy.seen.length).toBe(1);
  });
});
