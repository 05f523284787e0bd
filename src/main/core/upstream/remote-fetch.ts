/**
 * The `fetch` every request to a remote server (and to its authorization server) goes through.
 *
 * - HTTPS_PROXY / HTTP_PROXY / NO_PROXY (and their lower-case forms) are honoured: Node's own
 *   fetch ignores them, so when one is set the request goes through undici's EnvHttpProxyAgent.
 * - NODE_EXTRA_CA_CERTS is honoured by Node itself (it extends the default CA store that every
 *   TLS connection uses); nothing here may pass its own `ca`, or that would be lost.
 *
 * - A server's event stream (the legacy HTTP+SSE GET, the Streamable HTTP standalone GET) has no
 *   idle limit: Node's fetch cuts a body after 300 s without a byte (undici's `bodyTimeout`), and
 *   such a stream may rightly stay silent for an hour. Every other request keeps that limit (the
 *   hub's per-request timeouts come first anyway).
 *
 * The proxy and stream paths use undici's own fetch with its own dispatcher (mixing an npm undici
 * dispatcher with Node's bundled fetch breaks across major versions) and hand back a global
 * `Response`, because the SDK tests `instanceof Response` when it parses OAuth error bodies.
 */
import { Agent, EnvHttpProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { dispatchRequest, type RemoteRequest } from './remote-request.js';

export type { RemoteRequest, RemoteRequestInit, RemoteResponse } from './remote-request.js';

export type RemoteFetch = ((url: string | URL, init?: RequestInit) => Promise<Response>) & {
  /**
   * The same requests without the WHATWG fetch objects (Request, Headers, a web stream per body:
   * issue 27 measured those at a few hundred µs of the hub's CPU per call), where this fetch
   * offers it (createRemoteFetch's does): remote-request.ts. Same dispatcher rules as `fetch`
   * (proxy, body timeout); keep-alive connections; redirects not followed (the caller decides).
   */
  request?: RemoteRequest;
};

export interface RemoteFetchOptions {
  /**
   * How long the body of an ordinary response may stay silent before the request fails, in ms
   * (undici's `bodyTimeout`; default Node's own, 300 s). Event streams never have one. Tests set a
   * short one to show the difference without waiting five minutes.
   */
  bodyTimeoutMs?: number;
}

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

/** The proxy settings of an environment; undefined when no proxy is configured. */
export function proxySettings(env: Readonly<Record<string, string | undefined>>): ProxySettings | undefined {
  const pick = (name: string): string | undefined => {
    const value = env[name] ?? env[name.toLowerCase()];
    return value && value.trim() !== '' ? value.trim() : undefined;
  };
  const httpProxy = pick('HTTP_PROXY');
  const httpsProxy = pick('HTTPS_PROXY');
  if (!httpProxy && !httpsProxy) return undefined;
  const out: ProxySettings = {};
  if (httpProxy) out.httpProxy = httpProxy;
  if (httpsProxy) out.httpsProxy = httpsProxy;
  const noProxy = pick('NO_PROXY');
  if (noProxy) out.noProxy = noProxy;
  return out;
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch for remote servers that honours the proxy variables of `env` (default: this process's),
 * with no idle limit on event streams.
 */
export function createRemoteFetch(env: Readonly<Record<string, string | undefined>> = process.env, options: RemoteFetchOptions = {}): RemoteFetch {
  const proxy = proxySettings(env);
  const dispatcher = (bodyTimeout: number | undefined): Dispatcher => {
    const timeouts = bodyTimeout === undefined ? {} : { bodyTimeout };
    if (!proxy) return new Agent(timeouts);
    // EnvHttpProxyAgent falls back to process.env for a missing option; '' keeps `env` in charge.
    // (An https URL with only HTTP_PROXY set goes through that proxy, as undici and curl do.)
    return new EnvHttpProxyAgent({ httpProxy: proxy.httpProxy ?? '', httpsProxy: proxy.httpsProxy ?? '', noProxy: proxy.noProxy ?? '', ...timeouts });
  };
  const ordinary: RemoteFetch = !proxy && options.bodyTimeoutMs === undefined ? (url, init) => fetch(url, init) : fetchWith(dispatcher(options.bodyTimeoutMs));
  const streams = fetchWith(dispatcher(0));
  const remoteFetch: RemoteFetch = (url, init) => (isEventStream(init) ? streams(url, init) : ordinary(url, init));
  // Its own dispatcher, never the global one: that may be Node's bundled undici, whose
  // dispatchers do not take this undici's handlers (see above). Connections are kept alive.
  const requests = dispatcher(options.bodyTimeoutMs);
  remoteFetch.request = dispatchRequest(requests);
  return remoteFetch;
}

/** A GET that asks for `text/event-stream`: a server's event stream, not a request's answer. */
export function isEventStream(init: RequestInit | undefined): boolean {
  if (!init?.headers || (init.method !== undefined && init.method.toUpperCase() !== 'GET')) return false;
  return /\btext\/event-stream\b/i.test(new Headers(init.headers).get('accept') ?? '');
}

function fetchWith(dispatcher: Dispatcher): RemoteFetch {
  return async (url, init) => {
    const res = await undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher });
    const body = NULL_BODY_STATUS.has(res.status) ? null : (res.body as ReadableStream<Uint8Array> | null);
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers as unknown as Headers });
  };
}
