/**
 * `/ui`: the browser UI on the hub's port. Static assets are public (they hold no data); the page
 * itself and the API need a login (see UiAuth). Routes:
 *   GET  /ui/login?token=T  one-time ticket → session cookie → 303 to /ui/ (no token in the URL after)
 *   GET  /ui/login          the login page;  POST /ui/login  (form: the hub token) → cookie
 *   POST /ui/logout         ends the session
 *   GET  /ui/ , /ui/index.html  the app (after login);  GET /ui/<file>  built assets
 *   GET  /ui/app-sandbox?csp=…  the MCP Apps sandbox page (public: it holds no data; app-sandbox.ts)
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { readBody } from '../protocol/body.js';
import type { HttpRoute } from '../protocol/http-route.js';
import { APP_SANDBOX_PAGE, appSandboxCspFromQuery } from './app-sandbox.js';
import { loginPage } from './login-page.js';
import { resolveInside, sendStatic, uiBuilt } from './static-files.js';
import type { UiAuth } from './ui-auth.js';

export interface UiRouteOptions {
  root: string;
  auth: UiAuth;
  /** The hub token now; undefined when auth is off (`--no-auth`: no login at all). */
  token(): string | undefined;
  tokenFile?: string;
}

// frame-src: the playground's MCP Apps sandbox page (/ui/app-sandbox) on the hub's own origins, the
// only page of ours that lets itself be framed (every other one says frame-ancestors 'none' and
// X-Frame-Options DENY). The UI frames it from the other loopback name (127.0.0.1 ⇄ localhost):
// another site, so the browser runs the app in a process of its own and a looping app cannot
// freeze the page (src/renderer/screens/playground/app-sandbox-url.ts).
const appCsp = (ownOrigins: string[]): string =>
  `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' data:; font-src 'self'; connect-src 'self'; frame-src 'self' ${ownOrigins.join(' ')}; ` +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The hub's origins a CSP can name: a bracketed IPv6 host is not a valid CSP host source. */
const framable = (origins: string[]): string[] => origins.filter((o) => !o.includes('['));

const COMMON_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // Not 'no-referrer': with it, a form POST carries `Origin: null`, which the hub refuses (P23).
  // Same-origin referrers never leave the hub, and no URL of ours after login holds a token.
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export function uiRoute(options: UiRouteOptions): HttpRoute {
  const { auth } = options;
  const authOn = (): boolean => options.token() !== undefined;
  const loggedIn = (req: IncomingMessage): boolean => !authOn() || auth.hasSession(req);

  const redirect = (res: ServerResponse, location: string, cookie?: string): void => {
    const headers: Record<string, string> = { ...COMMON_HEADERS, Location: location, 'Cache-Control': 'no-store' };
    if (cookie) headers['Set-Cookie'] = cookie;
    res.writeHead(303, headers);
    res.end();
  };

  const showLogin = async (res: ServerResponse, status: number, message?: string): Promise<void> => {
    const nonce = randomBytes(16).toString('base64');
    const page: Parameters<typeof loginPage>[0] = { nonce, uiBuilt: await uiBuilt(options.root) };
    if (message) page.message = message;
    if (options.tokenFile) page.tokenFile = options.tokenFile;
    const body = loginPage(page);
    res.writeHead(status, {
      ...COMMON_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    });
    res.end(body);
  };

  const login = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!authOn()) return redirect(res, '/ui/');
    if (req.method === 'GET' || req.method === 'HEAD') {
      const ticket = new URL(req.url ?? '/', 'http://localhost').searchParams.get('token');
      if (ticket === null) return loggedIn(req) ? redirect(res, '/ui/') : showLogin(res, 200);
      const session = auth.redeemTicket(ticket);
      if (!session) return showLogin(res, 401, 'This login link was already used, has expired, or is not one Patchbay made.');
      return redirect(res, '/ui/', auth.sessionCookie(session));
    }
    if (req.method === 'POST') {
      // Browsers send Origin on every form POST; the hub already refused foreign ones.
      if (req.headers.origin === undefined || !auth.ownOrigins.includes(req.headers.origin)) {
        return showLogin(res, 403, 'Log in from the Patchbay page itself.');
      }
      const body = await readBody(req, 16 * 1024);
      if (!body.ok) return showLogin(res, 413, 'The form was too large.');
      const candidate = new URLSearchParams(body.text).get('token')?.trim() ?? '';
      const session = auth.loginWithToken(candidate, options.token());
      if (!session) return showLogin(res, 401, 'That is not the hub token. Copy it again from the token file.');
      return redirect(res, '/ui/', auth.sessionCookie(session));
    }
    res.writeHead(405, { ...COMMON_HEADERS, Allow: 'GET, POST' });
    res.end();
  };

  return {
    prefix: '/ui',
    auth: 'none',
    handle: async (req, res, urlPath) => {
      if (urlPath === '/ui') return redirect(res, '/ui/');
      if (urlPath === '/ui/login') return login(req, res);
      if (urlPath === '/ui/logout') {
        if (req.method !== 'POST') {
          res.writeHead(405, { ...COMMON_HEADERS, Allow: 'POST' });
          res.end();
          return;
        }
        if (req.headers.origin === undefined || !auth.ownOrigins.includes(req.headers.origin)) return showLogin(res, 403, 'Log out from the Patchbay page itself.');
        auth.logout(req);
        return redirect(res, '/ui/login', auth.clearCookie());
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { ...COMMON_HEADERS, Allow: 'GET' });
        res.end();
        return;
      }
      if (urlPath === '/ui/app-sandbox') {
        const query = new URL(req.url ?? '/', 'http://localhost').searchParams.get('csp');
        // Framed by the UI, so no X-Frame-Options; the CSP's frame-ancestors 'self' says who may.
        const { 'X-Frame-Options': _framing, ...headers } = COMMON_HEADERS;
        // Framed from the other loopback name: the hub's own origins may embed it, nobody else.
        const csp = appSandboxCspFromQuery(query, framable(auth.ownOrigins));
        res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Security-Policy': csp, 'Cross-Origin-Resource-Policy': 'cross-origin' });
        res.end(req.method === 'HEAD' ? undefined : APP_SANDBOX_PAGE);
        return;
      }
      if (urlPath === '/ui/' || urlPath === '/ui/index.html') {
        if (!loggedIn(req)) return redirect(res, '/ui/login');
        if (!(await uiBuilt(options.root))) return showLogin(res, 503);
        const sent = await sendStatic(res, path.join(options.root, 'index.html'), { ...COMMON_HEADERS, 'Content-Security-Policy': appCsp(framable(auth.ownOrigins)), 'Cache-Control': 'no-store' });
        if (!sent) return showLogin(res, 503);
        return;
      }
      const file = resolveInside(options.root, urlPath.slice('/ui/'.length));
      if (file && (await sendStatic(res, file, { ...COMMON_HEADERS, 'Content-Security-Policy': appCsp(framable(auth.ownOrigins)) }))) return;
      res.writeHead(404, { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`Not found: ${urlPath}`);
    },
  };
}
