/**
 * Where an MCP App's sandbox page is loaded from. On the headless UI (http on a loopback name) it
 * is the hub's other loopback name — 127.0.0.1 ⇄ localhost: another *site*, so the browser gives
 * the app's frame a process of its own (site isolation) and an app that loops forever cannot
 * freeze the Patchbay page. The frame is sandboxed without allow-same-origin either way. Elsewhere
 * (the desktop's app:// scheme, a hub reached by another name) it is this page's own host.
 */
export function appSandboxUrl(csp: unknown, here: string = location.href): string {
  const url = new URL('app-sandbox', here);
  if (url.protocol === 'http:') {
    if (url.hostname === 'localhost') url.hostname = '127.0.0.1';
    else if (url.hostname === '127.0.0.1' || url.hostname === '[::1]') url.hostname = 'localhost';
  }
  url.searchParams.set('csp', JSON.stringify(csp ?? {}));
  return url.href;
}
