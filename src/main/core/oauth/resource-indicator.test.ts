/**
 * P39 / RFC 8707 / RFC 9728 §3.3: the `resource` parameter of the authorization and token
 * requests is the protected resource metadata's identifier exactly as published. The conformance
 * scenario `auth/metadata-var2` publishes a pathless one (`http://localhost:<port>`, metadata at
 * the root well-known URI) and failed: the parsed URL's `href` added a "/". Here against the test
 * tree's authorization server (its log records each request's `resource`) and a protected MCP
 * server of the test's own with the same metadata shape.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../../../test/helpers/loopback-server.js';
import { initializeRequest } from '../../../../test/helpers/json-rpc.js';
import { messagesOfResponse, post } from '../../../../test/helpers/mcp-http.js';
import { OAUTH_SERVER, startFixture, startRemoteHub } from '../../../../test/remote/remote-harness.js';
import { followRedirectsOpener } from './openers.js';
import { PatchbayOAuthProvider, resourceIndicator, type ProviderHost } from './oauth-provider.js';

interface AsEvent {
  type: 'authorize' | 'token' | 'register';
  resource?: string;
  grant?: string;
}

/**
 * A Streamable HTTP MCP server (stateless, JSON answers, the legacy era) that needs a bearer
 * token from `issuer`, with its metadata at the root well-known URI naming the pathless
 * `resource` identifier, and a 401 challenge without `resource_metadata` (discovery must find it).
 */
async function protectedServer(issuer: string): Promise<{ url: string; origin: string }> {
  const server = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      if (path === '/.well-known/oauth-protected-resource') return send(200, { resource: origin, authorization_servers: [issuer] });
      if (path !== '/mcp') return send(404, { error: 'not_found' });
      const token = req.headers.authorization?.startsWith('Bearer ') ? req.headers.authorization.slice(7) : '';
      const check = await fetch(`${issuer}/introspect`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token }) });
      const info = (await check.json()) as { active?: boolean; aud?: string };
      if (!info.active || info.aud !== origin) return send(401, { error: 'invalid_token' }, { 'WWW-Authenticate': 'Bearer' });
      if (req.method !== 'POST') return send(405, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed' } });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: number | string; method: string; params?: { protocolVersion?: string } };
      if (body.id === undefined) return void res.writeHead(202).end();
      if (body.method === 'initialize') {
        return send(200, { jsonrpc: '2.0', id: body.id, result: { protocolVersion: body.params?.protocolVersion ?? '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'var2', version: '1' } } });
      }
      if (body.method === 'tools/list') return send(200, { jsonrpc: '2.0', id: body.id, result: { tools: [] } });
      // A 2025-era server: anything else (the hub's server/discover probe included) is refused.
      send(400, { jsonrpc: '2.0', id: body.id, error: { code: -32600, message: 'Bad Request: unsupported' } });
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  const origin = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  return { url: `${origin}/mcp`, origin };
}

function provider(config: ProviderHost['config'] = undefined): PatchbayOAuthProvider {
  return new PatchbayOAuthProvider({ serverId: 'x', config } as ProviderHost);
}

describe('the resource indicator (P39)', () => {
  it('keeps the exact text of a pathless identifier, where a parsed URL adds a "/"', async () => {
    expect(new URL('http://127.0.0.1:1234').href).toBe('http://127.0.0.1:1234/');
    const r = resourceIndicator('http://127.0.0.1:1234');
    expect([r.href, String(r), JSON.stringify({ r })]).toEqual(['http://127.0.0.1:1234', 'http://127.0.0.1:1234', '{"r":"http://127.0.0.1:1234"}']);
    expect(r.origin).toBe('http://127.0.0.1:1234');
    expect((await provider().validateResourceURL(new URL('http://127.0.0.1:1234/mcp'), 'http://127.0.0.1:1234'))?.href).toBe('http://127.0.0.1:1234');
    expect((await provider().validateResourceURL(new URL('http://127.0.0.1:1234/mcp'), 'http://127.0.0.1:1234/mcp'))?.href).toBe('http://127.0.0.1:1234/mcp');
    // Without metadata: the server URL (its fragment dropped); opted out: none.
    expect((await provider().validateResourceURL(new URL('http://127.0.0.1:1234/mcp#x')))?.href).toBe('http://127.0.0.1:1234/mcp');
    expect(await provider({ resource: false } as ProviderHost['config']).validateResourceURL(new URL('http://127.0.0.1:1234/mcp'), 'http://127.0.0.1:1234')).toBeUndefined();
  });

  it('refuses metadata for another resource, or an identifier with a fragment', async () => {
    const serverUrl = new URL('http://127.0.0.1:1234/mcp');
    await expect(provider().validateResourceURL(serverUrl, 'http://127.0.0.1:9999')).rejects.toThrow(/refusing to sign in/);
    await expect(provider().validateResourceURL(serverUrl, 'http://127.0.0.1:1234/other')).rejects.toThrow(/refusing to sign in/);
    await expect(provider().validateResourceURL(serverUrl, 'http://127.0.0.1:1234#frag')).rejects.toThrow(/fragment/);
    await expect(provider().validateResourceURL(serverUrl, 'not a uri')).rejects.toThrow(/not an absolute URI/);
  });

  it('sends the metadata’s pathless identifier verbatim in the authorization and token requests (auth/metadata-var2)', async () => {
    const as = await startFixture(OAUTH_SERVER);
    const rs = await protectedServer(as.url);
    const hub = await startRemoteHub({ servers: { secure: { url: rs.url, transport: 'streamable-http' } }, engine: { openUrl: followRedirectsOpener() } });
    const res = await post(hub, 'secure', initializeRequest());
    const answer = (await messagesOfResponse(res, 20_000)).messages[0]!;
    expect(answer.result).toMatchObject({ serverInfo: { name: 'var2' } });

    const log = await as.debug<AsEvent[]>('/_debug/log');
    const authorize = log.filter((e) => e.type === 'authorize');
    const token = log.filter((e) => e.type === 'token');
    expect(authorize).toHaveLength(1);
    expect(token).toHaveLength(1);
    // Exactly the identifier of the metadata, no "/" appended.
    expect(rs.origin).not.toMatch(/\/$/);
    expect(authorize[0]!.resource).toBe(rs.origin);
    expect(token[0]).toMatchObject({ grant: 'authorization_code', resource: rs.origin });
  });
});
