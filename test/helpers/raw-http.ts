/**
 * HTTP below fetch, for what fetch cannot do: any Host header and raw header names (node:http),
 * raw bytes on a TCP connection, a large upload that watches for an early answer, and a response
 * read incrementally. A connection still open when the test ends is closed then.
 */
import http from 'node:http';
import net from 'node:net';
import { onCleanup } from './cleanup.js';
import { SseReader } from './sse.js';
import { withTimeout } from './waits.js';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Header names exactly as sent on the wire, alternating with values. */
  rawHeaders: string[];
  text: string;
}

export interface RawRequest {
  port: number;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Default true: send `Host: 127.0.0.1:<port>` unless headers name one. */
  setHost?: boolean;
}

/** One request on a fresh connection with node:http: any Host header, any path, raw header names. */
export function rawRequest(r: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(r.headers ?? {}) };
    const hasHost = Object.keys(headers).some((k) => k.toLowerCase() === 'host');
    if (!hasHost && r.setHost !== false) headers.Host = `127.0.0.1:${r.port}`;
    if (r.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(r.body));
    const req = http.request({ host: '127.0.0.1', port: r.port, method: r.method ?? 'GET', path: r.path, headers, agent: false, setHost: false });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.end(r.body);
  });
}

/** Sends bytes on a raw TCP connection and returns everything the server writes until it closes. */
export function rawExchange(port: number, bytes: string, timeoutMs = 10_000): Promise<string> {
  return withTimeout(
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      onCleanup(() => socket.destroy());
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => {
        chunks.push(c);
        // A complete response with Content-Length is enough; we need not wait for the close.
        const text = Buffer.concat(chunks).toString('utf8');
        const split = text.indexOf('\r\n\r\n');
        const len = /content-length:\s*(\d+)/i.exec(text.slice(0, split));
        if (split !== -1 && len && Buffer.byteLength(text.slice(split + 4)) >= Number(len[1])) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
      socket.write(bytes);
    }),
    timeoutMs,
    'a raw TCP exchange',
  );
}

export interface UploadResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Bytes of the body written before the response arrived (or in total). */
  sent: number;
}

/**
 * POSTs a large body in chunks with node:http, watching for an early answer: the server may
 * answer (413) before the upload is complete. A connection reset before any response rejects.
 */
export function uploadLarge(opts: { port: number; path: string; headers: Record<string, string>; size: number; chunked?: boolean }): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: `127.0.0.1:${opts.port}`, ...opts.headers };
    if (!opts.chunked) headers['Content-Length'] = String(opts.size);
    const req = http.request({ host: '127.0.0.1', port: opts.port, method: 'POST', path: opts.path, headers, agent: false, setHost: false });
    onCleanup(() => req.destroy());
    const chunk = Buffer.alloc(64 * 1024, 'a');
    // The body starts like JSON so a server that parses early sees a string, not garbage.
    const head = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"');
    let sent = 0;
    let responded = false;
    let settled = false;
    const pump = (): void => {
      while (!responded && sent < opts.size) {
        const piece = sent === 0 ? head : chunk.subarray(0, Math.min(chunk.length, opts.size - sent));
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!responded) req.end();
    };
    req.on('error', (err) => {
      if (settled) return;
      settled = true;
      reject(new Error(`upload failed after ${sent} of ${opts.size} bytes, before any response: ${err.message}`));
    });
    req.on('response', (res) => {
      responded = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (settled) return;
        settled = true;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), sent });
        req.destroy();
      });
      res.on('error', (err) => {
        if (settled) return;
        settled = true;
        reject(new Error(`the response to the upload broke off: ${err.message}`));
      });
    });
    pump();
  });
}

/** A GET (or any request) whose response is read incrementally with node:http. */
export function rawStream(r: RawRequest): Promise<{ res: http.IncomingMessage; reader: SseReader; close(): void }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: `127.0.0.1:${r.port}`, ...(r.headers ?? {}) };
    if (r.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(r.body));
    const req = http.request({ host: '127.0.0.1', port: r.port, method: r.method ?? 'GET', path: r.path, headers, agent: false, setHost: false });
    const close = (): void => {
      req.destroy();
    };
    onCleanup(close);
    req.on('error', reject);
    req.on('response', (res) => resolve({ res, reader: new SseReader(res), close }));
    req.end(r.body);
  });
}
