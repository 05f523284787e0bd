/**
 * The add/edit form's model: form fields ⇄ a config entry. Editing keeps every key the form does
 * not know (`shared`, `requestTimeoutMs`, another tool's keys), so saving never drops them.
 */
import type { ServerConfig } from '../../../shared/config-schema.js';
import { isStdioServer, SERVER_ID_PATTERN } from './server-id.js';
import { fromRows, toRows, type KeyValueRow } from './key-value-editor.js';

export interface FormModel {
  name: string;
  kind: 'stdio' | 'remote';
  command: string;
  args: string;
  env: KeyValueRow[];
  cwd: string;
  /** Run in a sandbox (docs/sandbox.md), and its network: the policy's default, none, all or a list of hosts. */
  sandbox: boolean;
  sandboxNetwork: 'default' | 'none' | 'all' | 'hosts';
  /** With `hosts`: one host a line (`api.example.com`, `*.example.org`, `host:8443`). */
  sandboxHosts: string;
  /** Whether it may start other programs (default yes: npx and uvx must). */
  sandboxSubprocesses: boolean;
  /** Secret checks on its tool traffic (docs/secret-checks.md); `warn` is the default and is not written. */
  secretCheck: 'warn' | 'mask' | 'block' | 'off';
  url: string;
  transport: 'auto' | 'streamable-http' | 'sse';
  headers: KeyValueRow[];
  oauth: boolean;
  clientId: string;
  clientSecret: string;
  scope: string;
}

export type FieldErrors = Partial<Record<keyof FormModel | 'form', string>>;

export function emptyModel(): FormModel {
  return { name: '', kind: 'stdio', command: '', args: '', env: [], cwd: '', sandbox: false, sandboxNetwork: 'default', sandboxHosts: '', sandboxSubprocesses: true, secretCheck: 'warn', url: '', transport: 'auto', headers: [], oauth: true, clientId: '', clientSecret: '', scope: '' };
}

export function modelFrom(id: string, entry: ServerConfig): FormModel {
  const m = emptyModel();
  m.name = id;
  m.secretCheck = entry.secretCheck ?? 'warn';
  if (isStdioServer(entry)) {
    m.kind = 'stdio';
    m.command = entry.command;
    m.args = (entry.args ?? []).join('\n');
    m.env = toRows(entry.env);
    m.cwd = entry.cwd ?? '';
    m.sandbox = sandboxed(entry);
    const network = typeof entry.sandbox === 'object' ? entry.sandbox.network : undefined;
    m.sandboxNetwork = Array.isArray(network) ? 'hosts' : network === 'none' || network === 'all' ? network : 'default';
    m.sandboxHosts = Array.isArray(network) ? network.join('\n') : '';
    m.sandboxSubprocesses = !(typeof entry.sandbox === 'object' && entry.sandbox.subprocesses === false);
    return m;
  }
  const remote = entry as Record<string, unknown>;
  m.kind = 'remote';
  m.url = typeof remote.url === 'string' ? remote.url : '';
  const transport = remote.transport ?? (remote.type === 'sse' ? 'sse' : undefined);
  m.transport = transport === 'sse' || transport === 'streamable-http' ? transport : 'auto';
  m.headers = toRows(remote.headers as Record<string, string> | undefined);
  const oauth = remote.oauth;
  m.oauth = oauth !== false;
  if (oauth && typeof oauth === 'object') {
    const o = oauth as Record<string, unknown>;
    m.clientId = typeof o.clientId === 'string' ? o.clientId : '';
    m.clientSecret = typeof o.clientSecret === 'string' ? o.clientSecret : '';
    m.scope = typeof o.scope === 'string' ? o.scope : '';
  }
  return m;
}

function hostLines(text: string): string[] {
  return text.split(/[\n,]/).map((h) => h.trim()).filter((h) => h !== '');
}

/** Whether a server's entry runs it in a sandbox. */
export function sandboxed(entry: ServerConfig): boolean {
  return isStdioServer(entry) && entry.sandbox !== undefined && entry.sandbox !== false;
}

/** Client-side checks for what a person can fix at once; the engine validates everything again. */
export function validate(m: FormModel): FieldErrors {
  const errors: FieldErrors = {};
  if (!SERVER_ID_PATTERN.test(m.name)) errors.name = 'Use letters, digits, ".", "_" and "-" (up to 64), starting with a letter or digit. The name becomes part of the URL.';
  if (m.kind === 'stdio' && m.command.trim() === '') errors.command = 'Enter the program to run, e.g. npx or /usr/local/bin/my-server.';
  if (m.kind === 'stdio' && m.sandbox && m.sandboxNetwork === 'hosts' && hostLines(m.sandboxHosts).length === 0) errors.sandboxHosts = 'Enter at least one host, one a line (e.g. api.example.com or *.example.com), or choose None.';
  if (m.kind === 'remote') {
    try {
      const u = new URL(m.url);
      if (u.protocol !== 'https:' && u.protocol !== 'http:') errors.url = 'Use an http:// or https:// URL.';
    } catch {
      errors.url = 'Enter the full URL of the server, e.g. https://example.com/mcp.';
    }
  }
  for (const [rows, field] of [[m.env, 'env'], [m.headers, 'headers']] as const) {
    const keys = rows.map((r) => r.key.trim()).filter(Boolean);
    if (new Set(keys).size !== keys.length) errors[field] = 'Each name may appear once.';
    if (rows.some((r) => r.key.trim() === '' && r.value !== '')) errors[field] = 'A value has no name: fill in the name or remove the row.';
  }
  return errors;
}

/** The entry to save; `base` is the entry being edited (its unknown keys are kept). */
export function toEntry(m: FormModel, base?: ServerConfig): ServerConfig {
  const keep: Record<string, unknown> = { ...(base ?? {}) };
  for (const k of ['command', 'args', 'env', 'cwd', 'sandbox', 'url', 'type', 'transport', 'headers', 'oauth', 'secretCheck']) delete keep[k];
  if (m.secretCheck !== 'warn') keep.secretCheck = m.secretCheck;
  if (m.kind === 'stdio') {
    const entry: Record<string, unknown> = { ...keep, command: m.command.trim() };
    if (base && isStdioServer(base) && base.type === 'stdio') entry.type = 'stdio';
    const args = m.args.split('\n').map((a) => a.trim()).filter((a) => a !== '');
    if (args.length > 0) entry.args = args;
    const env = fromRows(m.env);
    if (env) entry.env = env;
    if (m.cwd.trim()) entry.cwd = m.cwd.trim();
    if (m.sandbox) {
      // An object written by hand keeps its paths; the form sets the network and subprocesses.
      const written = base && isStdioServer(base) && typeof base.sandbox === 'object' ? { ...base.sandbox } : {};
      if (m.sandboxNetwork === 'default') delete written.network;
      else written.network = m.sandboxNetwork === 'hosts' ? hostLines(m.sandboxHosts) : m.sandboxNetwork;
      if (m.sandboxSubprocesses) delete written.subprocesses;
      else written.subprocesses = false;
      entry.sandbox = Object.keys(written).length > 0 ? written : true;
    }
    return entry as ServerConfig;
  }
  const entry: Record<string, unknown> = { ...keep, url: m.url.trim() };
  const baseType = base && !isStdioServer(base) ? (base as Record<string, unknown>).type : undefined;
  if (baseType !== undefined && m.transport === 'auto') entry.type = baseType;
  if (m.transport !== 'auto') entry.transport = m.transport;
  const headers = fromRows(m.headers);
  if (headers) entry.headers = headers;
  if (!m.oauth) entry.oauth = false;
  else {
    const oauth: Record<string, string> = {};
    if (m.clientId.trim()) oauth.clientId = m.clientId.trim();
    if (m.clientSecret.trim()) oauth.clientSecret = m.clientSecret.trim();
    if (m.scope.trim()) oauth.scope = m.scope.trim();
    if (Object.keys(oauth).length > 0) entry.oauth = oauth;
  }
  return entry as ServerConfig;
}

/** Maps the engine's JSON-path problems (`$.mcpServers.fs.command`) to the form's fields. */
export function errorsFromDetails(details: unknown, fallback: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!Array.isArray(details) || details.length === 0) return { form: fallback };
  for (const d of details as Array<{ path?: string; message?: string }>) {
    const path = d.path ?? '';
    const message = d.message ?? 'invalid';
    const field = /\.(command|args|env|cwd|url|headers|transport|oauth|sandbox)\b/.exec(path)?.[1];
    const key: keyof FieldErrors = field === 'oauth' ? 'clientId' : field === 'sandbox' ? 'sandboxHosts' : ((field as keyof FormModel | undefined) ?? 'form');
    errors[key] = errors[key] ? `${errors[key]}; ${message}` : key === 'form' ? `${path}: ${message}` : message;
  }
  return errors;
}
