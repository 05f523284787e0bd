/**
 * The hub's side of a sandboxed server's host list (`"network": ["api.example.com", …]`,
 * docs/sandbox.md): an HTTP proxy on a unix socket that the sandbox reaches through its forwarder
 * (proxy-forwarder.ts) — the sandbox's network namespace has nothing else. It allows only the
 * listed hosts (host-list.ts):
 * - `CONNECT host:port` (HTTPS, and anything tunnelled): checked, then a raw tunnel;
 * - `GET http://host/…` (plain HTTP, absolute form): checked, sent on to that host with
 *   `Connection: close`, so every byte of the connection goes to the host that was checked.
 * Names are resolved here, not in the sandbox (which has no DNS); by default a name that resolves
 * to a loopback or link-local address (the hub's own API, a cloud's metadata service) is refused
 * unless the list names that address or `localhost` itself. Anything else gets a 403 that says
 * why; each denied host is logged once per server (`denied host X for server Y`) and every denial
 * is passed to `onDenied` (the audit trail, the UI).
 */
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { createLogger, type Logger } from '../log/logger.js';
import { allowedBy, parseHostRule, splitHostPort, type HostRule } from './host-list.js';

export interface HostDenial {
  server: string;
  host: string;
  port: number;
  reason: string;
}

export interface HostProxyOptions {
  /** Turns a host name into the address to connect to (default: publicResolve). */
  resolve?: (host: string) => Promise<string>;
  onDenied?: (denial: HostDenial) => void;
  logger?: Logger;
}

const MAX_HEAD = 16 * 1024;

export class HostProxy {
  private readonly rules: HostRule[];
  private readonly denied = new Set<string>();
  private readonly sockets = new Set<net.Socket>();
  private readonly log: Logger;

  private constructor(
    readonly server: string,
    readonly hosts: readonly string[],
    private readonly listener: net.Server,
    private readonly options: HostProxyOptions,
  ) {
    this.rules = hosts.map(parseHostRule);
    this.log = options.logger ?? createLogger(`sandbox-proxy:${server}`);
  }

  /**
   * Listens for the sandbox of server `server`: on a unix socket (Linux: bound into the sandbox),
   * or with `0`, on a TCP port of 127.0.0.1 (macOS: the profile allows only that port).
   */
  static async listen(where: string | 0, server: string, hosts: readonly string[], options: HostProxyOptions = {}): Promise<HostProxy> {
    const listener = net.createServer();
    const proxy = new HostProxy(server, hosts, listener, options);
    listener.on('connection', (socket) => proxy.accept(socket));
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      if (typeof where === 'string') listener.listen(where, () => resolve());
      else listener.listen(0, '127.0.0.1', () => resolve());
    });
    // The hub's lifetime is not the proxy's to decide: an idle proxy keeps no process alive.
    listener.unref();
    return proxy;
  }

  /** The TCP port (a proxy listening on 127.0.0.1), else undefined. */
  get port(): number | undefined {
    const a = this.listener.address();
    return typeof a === 'object' && a !== null ? a.port : undefined;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.listener.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD) this.refuse(client, 431, 'request head too large');
        return;
      }
      client.off('data', onData);
      client.pause();
      void this.route(client, head.subarray(0, end).toString('latin1'), head.subarray(end + 4));
    };
    client.on('data', onData);
  }

  private async route(client: net.Socket, head: string, rest: Buffer): Promise<void> {
    const [requestLine = '', ...headers] = head.split('\r\n');
    const [method = '', target = '', version = 'HTTP/1.1'] = requestLine.split(' ');
    const connect = method.toUpperCase() === 'CONNECT';
    let dest: { host: string; port: number } | undefined;
    let path = '/';
    if (connect) dest = splitHostPort(target, 443);
    else {
      try {
        const url = new URL(target);
        if (url.protocol === 'http:') {
          dest = { host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port ? Number(url.port) : 80 };
          path = `${url.pathname}${url.search}`;
        }
      } catch {
        // not an absolute URL: a proxy only forwards those
      }
    }
    if (dest === undefined) return this.refuse(client, 400, `patchbay's sandbox proxy takes CONNECT host:port or an absolute http:// URL, not "${requestLine}"`);
    if (allowedBy(this.rules, dest.host, dest.port) === undefined) {
      return this.deny(client, dest.host, dest.port, `${dest.host}:${dest.port} is not in server '${this.server}''s sandbox network list (${this.hosts.join(', ')})`);
    }
    let address: string;
    try {
      address = await (this.options.resolve ?? ((h: string) => publicResolve(h)))(dest.host);
    } catch (err) {
      return this.deny(client, dest.host, dest.port, `${dest.host} cannot be reached: ${(err as Error).message}`);
    }
    if (client.destroyed) return;
    const upstream = net.connect({ host: address, port: dest.port });
    this.sockets.add(upstream);
    upstream.on('close', () => {
      this.sockets.delete(upstream);
      client.destroy();
    });
    client.on('close', () => upstream.destroy());
    // Before 'connect' the client still waits for the proxy's answer: a 502 says why. After it the
    // connection is the upstream's bytes (a TLS stream, say): an HTTP answer there would be garbage,
    // so a reset mid-stream closes the client's connection as the upstream closed its own.
    let connected = false;
    upstream.on('error', (err) => {
      if (connected) client.destroy();
      else if (!client.writableEnded) this.refuse(client, 502, `${dest.host}:${dest.port}: ${(err as NodeJS.ErrnoException).code ?? err.message}`);
    });
    upstream.once('connect', () => {
      connected = true;
      if (connect) client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      else {
        // Hop-by-hop headers are the proxy's; the upstream gets one request per connection.
        const kept = headers.filter((h) => !/^(proxy-connection|proxy-authorization|connection|keep-alive)\s*:/i.test(h));
        upstream.write([`${method} ${path} ${version}`, ...kept, 'Connection: close', '', ''].join('\r\n'), 'latin1');
      }
      if (rest.length > 0) upstream.write(rest);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  }

  private deny(client: net.Socket, host: string, port: number, reason: string): void {
    const key = host.toLowerCase();
    if (!this.denied.has(key)) {
      this.denied.add(key);
      this.log.warn(`denied host ${host} for server ${this.server}`, { port, reason });
    }
    this.options.onDenied?.({ server: this.server, host, port, reason });
    this.refuse(client, 403, `denied by Patchbay: ${reason}`);
  }

  private refuse(client: net.Socket, status: number, reason: string): void {
    const text = { 400: 'Bad Request', 403: 'Forbidden', 431: 'Request Header Fields Too Large', 502: 'Bad Gateway' }[status] ?? 'Error';
    const body = `${reason}\n`;
    client.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
}

/**
 * The default resolver: the system's, except that a name resolving to a loopback, link-local or
 * unspecified address is refused (a listed name must not become a way into the hub's own API or a
 * cloud metadata service); an address or `localhost` listed as such is taken as meant.
 */
export async function publicResolve(host: string, system: (host: string) => Promise<{ address: string }> = lookup): Promise<string> {
  if (net.isIP(host) !== 0) return host;
  if (host.toLowerCase() === 'localhost') return '127.0.0.1';
  const { address } = await system(host);
  if (isInternal(address)) throw new Error(`it resolves to ${address}, a loopback or link-local address`);
  return address;
}

function isInternal(address: string): boolean {
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  return /^(127\.|169\.254\.|0\.)/.test(a) || a === '::1' || a === '::' || /^fe[89ab][0-9a-f]:/.test(a);
}
