// Pins the hub's front-door security settings (PROTOCOL P23, P25, P26). A change here is a
// security change: it must be deliberate.
import { describe, expect, it } from 'vitest';
import { allowedHostSet, allowedOrigins, checkHost, checkOrigin, checkToken, corsHeaders, PREFLIGHT_HEADERS } from './guards.js';

describe('checkHost (P23)', () => {
  it.each(['127.0.0.1:4000', 'localhost:4000', 'LOCALHOST:4000', '[::1]:4000'])('accepts %s', (host) => {
    expect(checkHost(host, 4000).ok).toBe(true);
  });
  it.each(['127.0.0.1', 'localhost', '127.0.0.1:4001', 'evil.example:4000', '0.0.0.0:4000', '127.0.0.2:4000', ''])('refuses %s with 403', (host) => {
    const r = checkHost(host || undefined, 4000);
    expect(r).toMatchObject({ ok: false, status: 403 });
  });
});

describe('checkHost with hub.allowedHosts (a load balancer in front)', () => {
  const extra = allowedHostSet(['mcp.example.com', 'LB.internal:8080', '[fd00::1]:9000']);
  it.each(['mcp.example.com', 'MCP.Example.COM', 'lb.internal:8080', '[fd00::1]:9000', '127.0.0.1:4000'])('accepts %s', (host) => {
    expect(checkHost(host, 4000, extra).ok).toBe(true);
  });
  it.each([
    'mcp.example.com:443', // a bare name matches only a Host without a port: exact, never "any port"
    'mcp.example.com:4000',
    'lb.internal', // a name listed with a port needs that port
    'lb.internal:8081',
    'evil.mcp.example.com',
    'mcp.example.com.evil.example',
    '[fd00::1]',
    '127.0.0.1',
  ])('refuses %s with 403', (host) => {
    const r = checkHost(host, 4000, extra);
    expect(r).toMatchObject({ ok: false, status: 403 });
    expect(r.ok ? '' : r.message).toContain('hub.allowedHosts');
  });
  it('an empty list changes nothing (and the message does not mention it)', () => {
    expect(checkHost('mcp.example.com', 4000, allowedHostSet([]))).toEqual({ ok: false, status: 403, message: "Forbidden: Host 'mcp.example.com' is not allowed; use 127.0.0.1:4000" });
  });
});

describe('checkOrigin (P23)', () => {
  const allowed = allowedOrigins({ port: 4000, extraOrigins: ['https://app.example'], token: 't' });
  it('allows a missing Origin (non-browser clients)', () => {
    expect(checkOrigin(undefined, allowed).ok).toBe(true);
  });
  it('allows the UI origins and configured additions only', () => {
    expect(checkOrigin('http://127.0.0.1:4000', allowed).ok).toBe(true);
    expect(checkOrigin('http://localhost:4000', allowed).ok).toBe(true);
    expect(checkOrigin('https://app.example', allowed).ok).toBe(true);
    expect(checkOrigin('http://localhost:4001', allowed)).toMatchObject({ ok: false, status: 403 });
    expect(checkOrigin('http://evil.example', allowed)).toMatchObject({ ok: false, status: 403 });
  });
  it('refuses Origin: null', () => {
    expect(checkOrigin('null', allowed)).toMatchObject({ ok: false, status: 403 });
  });
});

describe('checkToken (P25)', () => {
  const token = 'a'.repeat(43);
  it('accepts the right bearer token, case-insensitive scheme', () => {
    expect(checkToken(`Bearer ${token}`, token).ok).toBe(true);
    expect(checkToken(`bearer ${token}`, token).ok).toBe(true);
  });
  it.each([undefined, '', 'Bearer', `Bearer ${token}x`, `Basic ${token}`, `Bearer ${token.slice(1)}`])('refuses %s with 401 and a Bearer challenge', (auth) => {
    const r = checkToken(auth, token);
    expect(r).toMatchObject({ ok: false, status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="patchbay"' } });
  });
  it('lets everything through when auth is off', () => {
    expect(checkToken(undefined, undefined).ok).toBe(true);
  });
  it('follows a replaced token at once: the old one is refused from the next request on (its digest is not kept past it)', () => {
    const next = 'b'.repeat(43);
    expect(checkToken(`Bearer ${token}`, token).ok).toBe(true);
    expect(checkToken(`Bearer ${token}`, next)).toMatchObject({ ok: false, status: 401, message: 'Unauthorized: the hub token is wrong' });
    expect(checkToken(`Bearer ${next}`, next).ok).toBe(true);
    expect(checkToken(`Bearer ${next}`, token).ok).toBe(false);
  });
});

describe('CORS (P26)', () => {
  it('echoes the origin with Vary and exposes the MCP headers', () => {
    expect(corsHeaders('http://localhost:4000')).toEqual({
      'Access-Control-Allow-Origin': 'http://localhost:4000',
      'Access-Control-Expose-Headers': 'Mcp-Session-Id, Mcp-Protocol-Version',
      Vary: 'Origin',
    });
    expect(corsHeaders(undefined)).toEqual({});
  });
  it('preflight allows the methods and headers MCP clients send', () => {
    expect(PREFLIGHT_HEADERS['Access-Control-Allow-Methods']).toBe('GET, POST, DELETE, OPTIONS');
    for (const h of ['Content-Type', 'Authorization', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'Last-Event-ID', 'Mcp-Method', 'Mcp-Name']) {
      expect(PREFLIGHT_HEADERS['Access-Control-Allow-Headers']).toContain(h);
    }
  });
});
