import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { UiAuth } from './ui-auth.js';

const req = (headers: Record<string, string>, method = 'POST', url = '/api/call/hub.status') => ({ headers, method, url }) as unknown as IncomingMessage;

describe('UiAuth', () => {
  it('a ticket works once and yields a session cookie named after the port', () => {
    const auth = new UiAuth();
    auth.setPort(4321);
    const ticket = auth.issueTicket();
    const session = auth.redeemTicket(ticket);
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(auth.redeemTicket(ticket)).toBeUndefined();
    expect(auth.sessionCookie(session!)).toBe(`patchbay_ui_4321=${session}; Path=/; HttpOnly; SameSite=Strict`);
  });

  it('tickets expire, and rotation revokes tickets and sessions', () => {
    let now = 0;
    const auth = new UiAuth({ ticketTtlMs: 1000, now: () => now });
    auth.setPort(1);
    const old = auth.issueTicket();
    now = 2000;
    expect(auth.redeemTicket(old)).toBeUndefined();
    const session = auth.redeemTicket(auth.issueTicket())!;
    const cookie = { cookie: `other=1; patchbay_ui_1=${session}`, origin: 'http://127.0.0.1:1' };
    expect(auth.authorize(req(cookie))).toBe(true);
    auth.revokeAll();
    expect(auth.authorize(req(cookie))).toBe(false);
  });

  it('the cookie opens /api only, from the hub\'s own origin, and never cross-site', () => {
    const auth = new UiAuth();
    auth.setPort(7);
    const session = auth.redeemTicket(auth.issueTicket())!;
    const cookie = `patchbay_ui_7=${session}`;
    expect(auth.authorize(req({ cookie, origin: 'http://localhost:7' }))).toBe(true);
    expect(auth.authorize(req({ cookie }))).toBe(false); // a POST without Origin is not the UI page
    expect(auth.authorize(req({ cookie, origin: 'http://localhost:8' }))).toBe(false);
    expect(auth.authorize(req({ cookie, origin: 'http://localhost:7', 'sec-fetch-site': 'same-site' }))).toBe(false);
    expect(auth.authorize(req({ cookie }, 'GET', '/api/events'))).toBe(true);
    expect(auth.authorize(req({ cookie, origin: 'http://localhost:7' }, 'POST', '/mcp/fx'))).toBe(false);
    expect(auth.authorize(req({ cookie: 'patchbay_ui_7=forged', origin: 'http://localhost:7' }))).toBe(false);
  });

  it('logs in with the hub token only when it matches', () => {
    const auth = new UiAuth();
    expect(auth.loginWithToken('nope', 'the-token')).toBeUndefined();
    expect(auth.loginWithToken('', 'the-token')).toBeUndefined();
    expect(auth.loginWithToken('the-token', undefined)).toBeUndefined();
    expect(auth.loginWithToken('the-token', 'the-token')).toBeDefined();
  });
});
