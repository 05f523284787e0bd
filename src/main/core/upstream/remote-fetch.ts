/**
 * The `fetch` every request to a remote server (and to its authorization server) goes through.
 *
 * - HTTPS_PROXY / HTTP_PROXY / NO_PROXY (and their lower-case forms) are honoured: Node's own
 *   fetch ignores them, so when one is set the request goes through undici's EnvHttpProxyAgent.
 * - NODE_EXTRA_CA_CERTS is honoured by Node itself (it extends the default CA store that every
 *   TLS connection uses); nothing here may pass its own `ca`, or that would be lost.
 *
 * The proxy path uses undici's own fetch with its own dispatcher (mixing an npm undici dispatcher
 * with Node's bundled fetch breaks across major versions) and hands back a global `Response`,
 * because the SDK tests `instanceof Response` when it parses OAuth error bodies.
 */
import { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici';

export type RemoteFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

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

/** A fetch for remote servers that honours the proxy variables of `env` (default: this process's). */
export function createRemoteFetch(env: Readonly<Record<string, string | undefined>> = process.env): RemoteFetch {
  const proxy = proxySettings(env);
  if (!proxy) return (url, init) => fetch(url, init);
  // EnvHttpProxyAgent falls back to process.env for a missing option; '' keeps `env` in charge.
  // (An https URL with only HTTP_PROXY set goes through that proxy, as undici and curl do.)
  const dispatcher = new EnvHttpProxyAgent({ httpProxy: proxy.httpProxy ?? '', httpsProxy: proxy.httpsProxy ?? '', noProxy: proxy.noProxy ?? '' });
  return async (url, init) => {
    const res = await undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher });
    const body = NULL_BODY_STATUS.has(res.status) ? null : (res.body as ReadableStream<Uint8Array> | null);
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers as unknown as Headers });
  };
}
