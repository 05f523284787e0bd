import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../log/logger.js';
import { allowedBy, parseHostRule } from './host-list.js';
import { HostProxy, publicResolve, type HostDenial } from './host-proxy.js';

const undo: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const u of undo.splice(0).reverse()) await u();
});

/** One request through the proxy's unix socket; the whole answer, once the proxy ends it. */
function ask(socket: string, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = net.connect(socket);
    let out = '';
    c.on('data', (d: Buffer) => (out += d.toString()));
    c.on('end', () => resolve(out));
    c.on('error', reject);
    c.write(request);
  });
}

function recordingLogger(warnings: string[]): Logger {
  const log: Logger = { debug: () => undefined, info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined, child: () => log };
  return log;
}

describe('host lists', () => {
  it('match exact names and *. suffixes, on 443 and 80 unless a port is named', () => {
    const rules = ['api.example.com', '*.example.org', 'internal.test:8443'].map(parseHostRule);
    expect(allowedBy(rules, 'API.example.com', 443)).toBeDefined();
    expect(allowedBy(rules, 'api.example.com', 80)).toBeDefined();
    expect(allowedBy(rules, 'api.example.com', 8080)).toBeUndefined();
    expect(allowedBy(rules, 'x.api.example.com', 443)).toBeUndefined();
    expect(allowedBy(rules, 'a.b.example.org', 443)).toBeDefined();
    expect(allowedBy(rules, 'example.org', 443)).toBeUndefined();
    expect(allowedBy(rules, 'evilexample.org', 443)).toBeUndefined();
    expect(allowedBy(rules, 'internal.test', 8443)).toBeDefined();
    expect(allowedBy(rules, 'internal.test', 443)).toBeUndefined();
  });

  it('the default resolver refuses a name that leads to loopback or link-local, and takes a listed address as meant', async () => {
    const dns = (address: string) => () => Promise.resolve({ address });
    await expect(publicResolve('rebound.example.com', dns('127.0.0.1'))).rejects.toThrow(/resolves to 127\.0\.0\.1, a loopback or link-local/);
    await expect(publicResolve('metadata.example.com', dns('169.254.169.254'))).rejects.toThrow(/link-local/);
    await expect(publicResolve('v6.example.com', dns('::1'))).rejects.toThrow(/loopback/);
    expect(await publicResolve('api.example.com', dns('93.184.216.34'))).toBe('93.184.216.34');
    expect(await publicResolve('127.0.0.1')).toBe('127.0.0.1');
    expect(await publicResolve('localhost')).toBe('127.0.0.1');
  });
});

describe('the hub proxy of a host list', () => {
  it('refuses an unlisted host with a 403 that says why, logs it once per host, reports every denial; answers 400 to a non-proxy request', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pb-proxy-'));
    undo.push(() => rm(dir, { recursive: true, force: true }));
    const warnings: string[] = [];
    const denials: HostDenial[] = [];
    const sock = path.join(dir, 's');
    const proxy = await HostProxy.listen(sock, 'notes', ['api.example.com'], { logger: recordingLogger(warnings), onDenied: (d) => denials.push(d), resolve: () => Promise.reject(new Error('not used')) });
    undo.push(() => proxy.close());
    for (let i = 0; i < 2; i++) {
      const answer = await ask(sock, 'CONNECT evil.example.net:443 HTTP/1.1\r\nHost: evil.example.net:443\r\n\r\n');
      expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
      expect(answer).toContain("evil.example.net:443 is not in server 'notes''s sandbox network list (api.example.com)");
    }
    expect(await ask(sock, 'GET http://evil.example.net/x HTTP/1.1\r\nHost: evil.example.net\r\n\r\n')).toMatch(/^HTTP\/1\.1 403/);
    expect(warnings).toEqual(['denied host evil.example.net for server notes']);
    expect(denials.map((d) => `${d.host}:${d.port}`)).toEqual(['evil.example.net:443', 'evil.example.net:443', 'evil.example.net:80']);
    expect(await ask(sock, 'GET /x HTTP/1.1\r\nHost: a\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
  });

  it('an allowed name the resolver cannot place is refused with the reason, as a denial', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pb-proxy-'));
    undo.push(() => rm(dir, { recursive: true, force: true }));
    const sock = path.join(dir, 's');
    const proxy = await HostProxy.listen(sock, 'notes', ['sneaky.test'], { logger: recordingLogger([]), resolve: () => Promise.reject(new Error('it resolves to 127.0.0.1, a loopback or link-local address')) });
    undo.push(() => proxy.close());
    expect(await ask(sock, 'CONNECT sneaky.test:443 HTTP/1.1\r\n\r\n')).toContain('sneaky.test cannot be reached: it resolves to 127.0.0.1');
  });

  it('an upstream that fails before the tunnel is up gets a 502; one reset after it closes the client, with no HTTP answer in its byte stream', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pb-proxy-'));
    undo.push(() => rm(dir, { recursive: true, force: true }));
    // An upstream that resets the connection (RST) once the client's first bytes arrive.
    const upstream = net.createServer((s) => s.once('data', () => s.resetAndDestroy()));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', () => resolve()));
    undo.push(() => new Promise((resolve) => upstream.close(resolve)));
    const port = (upstream.address() as net.AddressInfo).port;
    // A port where nothing listens: the one a closed listener had.
    const gone = net.createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', () => resolve()));
    const deadPort = (gone.address() as net.AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    const sock = path.join(dir, 's');
    const proxy = await HostProxy.listen(sock, 'notes', [`up.test:${port}`, `down.test:${deadPort}`], { logger: recordingLogger([]), resolve: () => Promise.resolve('127.0.0.1') });
    undo.push(() => proxy.close());

    expect(await ask(sock, `CONNECT down.test:${deadPort} HTTP/1.1\r\n\r\n`)).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n[^]*down\.test:\d+: ECONNREFUSED/);

    const client = net.connect(sock);
    let received = '';
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.on('error', () => undefined);
    client.on('data', (d: Buffer) => {
      const before = received;
      received += d.toString('latin1');
      // Once the tunnel is up, the "TLS" bytes that make the upstream reset.
      if (!before.includes('\r\n\r\n') && received.includes('\r\n\r\n')) client.write('\x16\x03\x01 client hello');
    });
    client.write(`CONNECT up.test:${port} HTTP/1.1\r\nHost: up.test:${port}\r\n\r\n`);
    await closed;
    expect(received).toBe('HTTP/1.1 200 Connection Established\r\n\r\n');
  });
});
