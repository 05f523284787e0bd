/**
 * `servers.test`: a real MCP client opens a fresh session to the server *through the hub* (so the
 * test exercises exactly what a client gets, and shows up in the inspector like any session),
 * lists what the server offers, and closes the session. A failure says at which step it happened
 * with the hub's or the server's own message (e.g. "command not found: foo" or a stderr tail).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ServerTestResult } from '../../../shared/api/servers-contract.js';
import { PATCHBAY_VERSION } from '../home/version.js';

export interface ServerTestDeps {
  baseUrl: string;
  /** The hub token now (it may be rotated); undefined when auth is off. */
  token(): string | undefined;
  timeoutMs?: number;
}

/** Enough for a slow `npx` first download; a test that takes longer is reported as a timeout. */
const DEFAULT_TIMEOUT_MS = 60_000;
const MAX_ITEMS = 500;

export async function testServer(id: string, deps: ServerTestDeps): Promise<ServerTestResult> {
  const started = Date.now();
  const elapsed = (): number => Date.now() - started;
  const timeout = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const token = deps.token();
  const transport = new StreamableHTTPClientTransport(new URL(`${deps.baseUrl}/mcp/${encodeURIComponent(id)}`), {
    requestInit: { headers: token ? { Authorization: `Bearer ${token}` } : {} },
  });
  const client = new Client({ name: 'patchbay-test', version: PATCHBAY_VERSION });
  client.onerror = () => {};
  let stage: 'hub' | 'initialize' | 'list' = 'initialize';
  try {
    await withTimeout(client.connect(transport, { timeout }), timeout, 'the server did not answer initialize');
    stage = 'list';
    const caps = client.getServerCapabilities() ?? {};
    const [tools, resources, prompts] = await Promise.all([
      caps.tools ? withTimeout(client.listTools(undefined, { timeout }), timeout, 'tools/list did not answer') : undefined,
      caps.resources ? withTimeout(client.listResources(undefined, { timeout }), timeout, 'resources/list did not answer') : undefined,
      caps.prompts ? withTimeout(client.listPrompts(undefined, { timeout }), timeout, 'prompts/list did not answer') : undefined,
    ]);
    const info = client.getServerVersion();
    const result: ServerTestResult = {
      ok: true,
      tools: (tools?.tools ?? []).slice(0, MAX_ITEMS).map((t) => pick({ name: t.name, title: t.title, description: t.description })),
      resources: (resources?.resources ?? []).slice(0, MAX_ITEMS).map((r) => pick({ uri: r.uri, name: r.name, description: r.description, mimeType: r.mimeType })),
      prompts: (prompts?.prompts ?? []).slice(0, MAX_ITEMS).map((p) => pick({ name: p.name, title: p.title, description: p.description })),
      durationMs: elapsed(),
    };
    if (info) result.serverInfo = { name: info.name, version: info.version };
    const version = client.getNegotiatedProtocolVersion();
    if (version) result.protocolVersion = version;
    return result;
  } catch (err) {
    const message = describe(err);
    if (/\b(401|403|404)\b/.test(message) && stage === 'initialize' && /HTTP|Not Found|Unauthorized|Forbidden/i.test(message)) stage = 'hub';
    return { ok: false, stage, message, durationMs: elapsed() };
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await client.close().catch(() => undefined);
  }
}

function describe(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // The SDK prefixes JSON-RPC errors with "MCP error <code>: "; the rest is the hub's or server's text.
  return message.replace(/^MCP error -?\d+:\s*/, '').trim() || 'the test failed without a message';
}

function pick<T extends Record<string, unknown>>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return out as { [K in keyof T]: Exclude<T[K], undefined> };
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} within ${Math.round(ms / 1000)}s`)), ms);
  });
  return Promise.race([promise, timedOut]).finally(() => clearTimeout(timer));
}
