#!/usr/bin/env node
// @ts-check
/**
 * A client for the official conformance suite's CLIENT scenarios (`auth/*`, `sse-retry`, …) that
 * exercises Patchbay's remote upstream and OAuth client: it starts the built engine (dist/) with
 * one remote server, the scenario's URL, and talks MCP to the hub: initialize,
 * notifications/initialized, tools/list, then tools/call of every tool.
 *
 *   conformance client --command "node test/remote/conformance-client.mjs" --scenario auth/…
 *
 * The browser step follows the authorization server's redirect with an HTTP client (its
 * authorization endpoint approves at once). `MCP_CONFORMANCE_CONTEXT` may carry a pre-registered
 * `client_id`/`client_secret`; the Client ID Metadata Document URL is the one the suite expects.
 * Exits 0 when every call was answered, 1 otherwise.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** @param {string} rel @returns {Promise<any>} */
const load = (rel) => import(pathToFileURL(path.join(ROOT, 'dist', rel)).href);
const { startEngine } = await load('main/core/engine/engine.js');
const { followRedirectsOpener } = await load('main/core/oauth/openers.js');

const serverUrl = process.argv[process.argv.length - 1] ?? '';
/** @type {{ client_id?: string, client_secret?: string }} */
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'patchbay-conformance-client-'));
/** @type {Record<string, string>} */
const oauth = { clientMetadataUrl: 'https://conformance-test.local/client-metadata.json' };
if (context.client_id) oauth.clientId = context.client_id;
if (context.client_secret) {
  oauth.clientSecret = '${secret:CONFORMANCE_CLIENT_SECRET}';
  writeFileSync(path.join(dataDir, 'secrets.json'), JSON.stringify({ version: 1, secrets: { CONFORMANCE_CLIENT_SECRET: context.client_secret } }), { mode: 0o600 });
}
writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ mcpServers: { remote: { url: serverUrl, oauth } } }));
process.env.PATCHBAY_NO_LOGIN_SHELL = '1';

const engine = await startEngine({ dataDir, port: 0, auth: false, openUrl: followRedirectsOpener(), oauthLoginWaitMs: 15_000 });
const endpoint = `${engine.url}/mcp/remote`;
/** @type {string | undefined} */
let sessionId;
/** @type {string | undefined} */
let protocolVersion;
let nextId = 0;

/**
 * @param {string} method
 * @param {Record<string, unknown> | undefined} params
 * @param {boolean} [notification]
 * @returns {Promise<any>}
 */
async function rpc(method, params, notification = false) {
  const id = ++nextId;
  const body = notification ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', id, method, params };
  /** @type {Record<string, string>} */
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  if (sessionId) headers['Mcp-Session-Id'] = sessionId;
  if (protocolVersion) headers['Mcp-Protocol-Version'] = protocolVersion;
  const res = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(body) });
  sessionId = res.headers.get('mcp-session-id') ?? sessionId;
  const text = await res.text();
  if (notification) return undefined;
  const data = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).filter(Boolean);
  const messages = (data.length > 0 ? data : [text]).map((t) => JSON.parse(t));
  const answer = messages.find((m) => m.id === id);
  process.stderr.write(`${method} -> ${JSON.stringify(answer).slice(0, 400)}\n`);
  if (!answer || answer.error) throw new Error(`${method} failed: ${answer?.error?.message ?? 'no answer'}`);
  return answer;
}

let exitCode = 0;
try {
  const init = await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'patchbay-conformance-client', version: '1.0.0' } });
  protocolVersion = init.result.protocolVersion;
  await rpc('notifications/initialized', undefined, true);
  const tools = await rpc('tools/list', {});
  for (const tool of tools.result.tools ?? []) await rpc('tools/call', { name: tool.name, arguments: {} });
} catch (err) {
  process.stderr.write(`conformance-client: ${err instanceof Error ? err.message : String(err)}\n`);
  exitCode = 1;
}
await engine.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(exitCode);
