/**
 * The MCP Apps sandbox page (`GET /ui/app-sandbox?csp=<json>`): what the playground loads in an
 * `<iframe sandbox="allow-scripts">` (no allow-same-origin: an opaque origin, so the app can reach
 * neither the Patchbay page, its cookie, nor `/api`). The page waits for the app's HTML from its
 * parent (one `patchbay/app-html` message) and writes it over itself, so the app runs under this
 * response's Content-Security-Policy header — built here from the resource's declared domains
 * (`_meta.ui.csp`, SEP-1865), validated, so nothing a server declares can add a directive.
 * Default: no network at all. The UI's own CSP is not loosened beyond `frame-src 'self'`.
 */

/** The CSP domains a resource may declare (`McpUiResourceCsp` in @modelcontextprotocol/ext-apps). */
export interface AppCspDomains {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
}

/** At most this many origins per list: a CSP header has to stay a sane size. */
const MAX_DOMAINS = 32;

/**
 * One origin a resource may name: `https://host[:port]` (or `wss://` for connections), a host of
 * letters, digits, `-` and `.`, optionally starting with one `*.` label. Nothing else — no paths,
 * quotes, spaces, semicolons or keywords — so no value can inject a directive or a source keyword.
 */
const ORIGIN = /^(https|wss):\/\/(\*\.)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/;

/** The well-formed origins of a declared list (lower-cased, without a trailing slash); the rest dropped. */
export function validOrigins(value: unknown, schemes: ReadonlyArray<'https' | 'wss'> = ['https']): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string' || item.length > 253) continue;
    const origin = item.trim().toLowerCase().replace(/\/$/, '');
    const m = ORIGIN.exec(origin);
    if (!m || !schemes.includes(m[1] as 'https' | 'wss')) continue;
    if (m[5] !== undefined && Number(m[5].slice(1)) > 65535) continue;
    if (!out.includes(origin)) out.push(origin);
    if (out.length === MAX_DOMAINS) break;
  }
  return out;
}

/** The declared domains of a resource's `_meta.ui.csp` (anything), validated. */
export function appCspDomains(csp: unknown): AppCspDomains {
  const c = csp !== null && typeof csp === 'object' && !Array.isArray(csp) ? (csp as Record<string, unknown>) : {};
  return {
    connectDomains: validOrigins(c.connectDomains, ['https', 'wss']),
    resourceDomains: validOrigins(c.resourceDomains),
    frameDomains: validOrigins(c.frameDomains),
    baseUriDomains: validOrigins(c.baseUriDomains),
  };
}

/**
 * The sandbox page's CSP. Inline scripts and styles are the app's own (its HTML is one document);
 * `'self'` is never a source — the page's URL is the hub's, and the app must not fetch from it.
 */
export function appSandboxCsp(d: AppCspDomains, embedders: string[] = []): string {
  const res = d.resourceDomains.join(' ');
  const list = (...parts: string[]): string => parts.filter((p) => p !== '').join(' ');
  return [
    "default-src 'none'",
    list("script-src 'unsafe-inline' 'unsafe-eval' blob: data:", res),
    list("style-src 'unsafe-inline' blob: data:", res),
    list('img-src data: blob:', res),
    list('font-src data: blob:', res),
    list('media-src data: blob:', res),
    d.connectDomains.length ? `connect-src ${d.connectDomains.join(' ')}` : "connect-src 'none'",
    d.frameDomains.length ? `frame-src ${d.frameDomains.join(' ')}` : "frame-src 'none'",
    d.baseUriDomains.length ? `base-uri ${d.baseUriDomains.join(' ')}` : "base-uri 'none'",
    "worker-src blob:",
    "object-src 'none'",
    "form-action 'none'",
    // Only the Patchbay page may embed it (its parent is the UI, on one of the hub's origins).
    list("frame-ancestors 'self'", embedders.join(' ')),
  ].join('; ');
}

/** The CSP for a request's `?csp=` (JSON of `McpUiResourceCsp`; anything unreadable means none declared). */
export function appSandboxCspFromQuery(query: string | null, embedders: string[] = []): string {
  let declared: unknown;
  try {
    declared = query === null || query.length > 16_384 ? undefined : JSON.parse(query);
  } catch {
    declared = undefined;
  }
  return appSandboxCsp(appCspDomains(declared), embedders);
}

/**
 * The page: a loader that accepts one message from its parent — `{type: 'patchbay/app-html',
 * html}` — and writes the app over itself (document.open also drops the loader's listener), then
 * tells the parent it did. Anything else is ignored. It says it is ready once loaded.
 */
export const APP_SANDBOX_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MCP App</title></head>
<body><script>
(function () {
  if (window.parent === window) return;
  var done = false;
  function onMessage(event) {
    if (done || event.source !== window.parent) return;
    var data = event.data;
    if (!data || data.type !== 'patchbay/app-html' || typeof data.html !== 'string') return;
    done = true;
    window.removeEventListener('message', onMessage);
    document.open();
    document.write(data.html);
    document.close();
  }
  window.addEventListener('message', onMessage);
  window.parent.postMessage({ type: 'patchbay/app-sandbox-ready' }, '*');
})();
</script></body></html>`;
