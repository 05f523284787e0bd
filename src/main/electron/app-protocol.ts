/**
 * The app:// scheme: the built renderer, read-only, with the strict CSP on every response.
 * Registered as standard and secure (so 'self' in the CSP means app://patchbay and the page is a
 * secure context), with no fetch or CORS privileges: nothing but the window loads from it.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CustomScheme } from 'electron';
import { APP_SANDBOX_PAGE, appSandboxCspFromQuery, resolveInside } from '../core/index.js';
import { APP_HOST, APP_SCHEME } from './app-origin.js';
import { DESKTOP_RESPONSE_HEADERS } from './csp.js';
import { contentTypeOf } from '../core/index.js';

export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true },
};


/** The handler for `protocol.handle('app', …)`. */
export function appProtocolHandler(rendererRoot: string): (request: Request) => Promise<Response> {
  const root = path.resolve(rendererRoot);
  return async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return text(404, 'not found');
    if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'method not allowed');
    if (url.pathname === '/app-sandbox') return appSandbox(request, url);
    const relative = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
    const file = resolveInside(root, relative);
    const type = file ? contentTypeOf(file) : undefined;
    if (!file || !type) return text(404, 'not found');
    let body: Buffer;
    try {
      if (!(await stat(file)).isFile()) return text(404, 'not found');
      body = await readFile(file);
    } catch {
      return text(404, 'not found');
    }
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers: { 'Content-Type': type, ...DESKTOP_RESPONSE_HEADERS } });
  };
}

/**
 * The MCP Apps sandbox page, as the headless UI serves it at /ui/app-sandbox (core/ui/app-sandbox.ts):
 * framed by the window in an opaque-origin iframe, under a CSP of its own built from the app's
 * validated domains (the window's frame-src 'self' allows it; nothing else of ours is framed).
 */
function appSandbox(request: Request, url: URL): Response {
  const headers = { ...DESKTOP_RESPONSE_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Security-Policy': appSandboxCspFromQuery(url.searchParams.get('csp')) };
  return new Response(request.method === 'HEAD' ? null : APP_SANDBOX_PAGE, { status: 200, headers });
}

function text(status: number, message: string): Response {
  return new Response(message, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...DESKTOP_RESPONSE_HEADERS } });
}
