/**
 * `GET /oauth/callback` on the hub's port: where the browser lands after signing in to a remote
 * server (the loopback redirect URI, P40). It carries no hub token (a browser redirect cannot),
 * so the `state` of a sign-in in progress is what lets it in; Host and Origin are still checked
 * by the hub. The page it answers is static text: no script, nothing loaded, no referrer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpRoute } from '../protocol/http-route.js';
import type { CallbackOutcome } from './oauth-service.js';

export const OAUTH_CALLBACK_PATH = '/oauth/callback';

export interface CallbackHandler {
  handleCallback(query: URLSearchParams): Promise<CallbackOutcome>;
}

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(res: ServerResponse, status: number, title: string, message: string): void {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)} · Patchbay</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}</style></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`;
  res.writeHead(status, { ...PAGE_HEADERS, 'Content-Length': Buffer.byteLength(html) });
  res.end(html);
}

export function oauthCallbackRoute(handler: CallbackHandler): HttpRoute {
  return {
    prefix: OAUTH_CALLBACK_PATH,
    auth: 'none',
    handle: async (req: IncomingMessage, res: ServerResponse, path: string) => {
      if (path !== OAUTH_CALLBACK_PATH) return page(res, 404, 'Not found', 'There is nothing here.');
      if (req.method !== 'GET') {
        res.setHeader('Allow', 'GET');
        return page(res, 405, 'Method not allowed', 'The sign-in callback is a GET.');
      }
      const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
      const outcome = await handler.handleCallback(query);
      if (outcome.ok) return page(res, 200, 'Signed in', `Patchbay is signed in to '${outcome.serverId}'. You can close this window.`);
      return page(res, outcome.status, 'Sign-in failed', outcome.message);
    },
  };
}
