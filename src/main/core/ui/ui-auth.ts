/**
 * Who may use the browser UI. `patchbay serve` prints a one-time login link; opening it trades
 * the link's ticket for a random session id in an HttpOnly, SameSite=Strict cookie, and the
 * browser is redirected to a URL without the ticket. The cookie then stands in for the hub token
 * on `/api` — only for requests from the UI's own origin (CSRF: a state-changing request must
 * carry an Origin, and it must be the hub's own). Tickets and sessions live in memory: a restart
 * of the hub logs the browser out, and a new link is printed.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface UiAuthOptions {
  /** Tickets not redeemed within this long expire (ms). */
  ticketTtlMs?: number;
  /** A browser session ends this long after login (ms). */
  sessionTtlMs?: number;
  now?: () => number;
}

const DEFAULT_TICKET_TTL_MS = 24 * 60 * 60_000;
const DEFAULT_SESSION_TTL_MS = 7 * 24 * 60 * 60_000;
/** Bounded: an attacker cannot grow these tables by asking for tickets or logging in over and over. */
const MAX_TICKETS = 32;
const MAX_SESSIONS = 256;

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export class UiAuth {
  private readonly tickets = new Map<string, number>();
  private readonly sessions = new Map<string, number>();
  private port = 0;
  private readonly ticketTtlMs: number;
  private readonly sessionTtlMs: number;
  private readonly now: () => number;

  constructor(options: UiAuthOptions = {}) {
    this.ticketTtlMs = options.ticketTtlMs ?? DEFAULT_TICKET_TTL_MS;
    this.sessionTtlMs = options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /** Called once the hub knows its port: the cookie name carries it (cookies ignore ports). */
  setPort(port: number): void {
    this.port = port;
  }

  /** `patchbay_ui_<port>`: two hubs on one host must not overwrite each other's cookie. */
  get cookieName(): string {
    return `patchbay_ui_${this.port}`;
  }

  /** The hub's own origins: the only ones a cookie-authenticated request may come from. */
  get ownOrigins(): string[] {
    return [`http://127.0.0.1:${this.port}`, `http://localhost:${this.port}`, `http://[::1]:${this.port}`];
  }

  /** A fresh one-time ticket (256 bits). */
  issueTicket(): string {
    this.sweep();
    const ticket = randomBytes(32).toString('base64url');
    this.tickets.set(ticket, this.now() + this.ticketTtlMs);
    while (this.tickets.size > MAX_TICKETS) this.tickets.delete(this.tickets.keys().next().value!);
    return ticket;
  }

  /** The path that logs a browser in with a fresh ticket. */
  loginPath(): string {
    return `/ui/login?token=${this.issueTicket()}`;
  }

  /** Uses up a ticket; returns a new session id, or undefined when the ticket is unknown, used or expired. */
  redeemTicket(ticket: string): string | undefined {
    this.sweep();
    // Map lookup on a 256-bit random key: timing reveals nothing useful about other tickets.
    const expires = this.tickets.get(ticket);
    if (expires === undefined) return undefined;
    this.tickets.delete(ticket);
    return this.newSession();
  }

  /** Login with the hub token itself (the form on the login page): compared in constant time. */
  loginWithToken(candidate: string, token: string | undefined): string | undefined {
    if (token === undefined || candidate === '') return undefined;
    if (!timingSafeEqual(digest(candidate), digest(token))) return undefined;
    return this.newSession();
  }

  hasSession(req: IncomingMessage): boolean {
    const id = this.sessionId(req);
    if (id === undefined) return false;
    const expires = this.sessions.get(id);
    if (expires === undefined) return false;
    if (expires <= this.now()) {
      this.sessions.delete(id);
      return false;
    }
    return true;
  }

  /**
   * The hub's `authorize` hook for `/api`: a valid session cookie, sent by the UI's
   * own page. Browsers send Origin on every non-GET request; one without it, or a request a
   * browser marks as cross-site, is not the UI.
   */
  authorize(req: IncomingMessage): boolean {
    // The cookie opens the UI's API only; MCP clients always present the token.
    const url = req.url ?? '';
    if (url !== '/api' && !url.startsWith('/api/')) return false;
    if (!this.hasSession(req)) return false;
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
    const method = req.method ?? 'GET';
    if (method === 'GET' || method === 'HEAD') return true;
    const origin = req.headers.origin;
    return origin !== undefined && this.ownOrigins.includes(origin);
  }

  logout(req: IncomingMessage): void {
    const id = this.sessionId(req);
    if (id !== undefined) this.sessions.delete(id);
  }

  /** Ends every browser session and ticket (the hub token was rotated). */
  revokeAll(): void {
    this.sessions.clear();
    this.tickets.clear();
  }

  sessionCookie(id: string): string {
    return `${this.cookieName}=${id}; Path=/; HttpOnly; SameSite=Strict`;
  }

  clearCookie(): string {
    return `${this.cookieName}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
  }

  private newSession(): string {
    this.sweep();
    const id = randomBytes(32).toString('base64url');
    this.sessions.set(id, this.now() + this.sessionTtlMs);
    while (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    return id;
  }

  private sessionId(req: IncomingMessage): string | undefined {
    const header = req.headers.cookie;
    if (!header) return undefined;
    const name = this.cookieName;
    for (const part of header.split(';')) {
      const eq = part.indexOf('=');
      if (eq === -1) continue;
      if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
    }
    return undefined;
  }

  private sweep(): void {
    const now = this.now();
    for (const [k, expires] of this.tickets) if (expires <= now) this.tickets.delete(k);
    for (const [k, expires] of this.sessions) if (expires <= now) this.sessions.delete(k);
  }
}
