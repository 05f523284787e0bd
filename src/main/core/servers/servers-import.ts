/**
 * Turns a pasted snippet into server entries. People paste what a server's README shows, which
 * comes in several shapes: `{"mcpServers": {...}}` (Claude, Cursor, …), `{"servers": {...}}`
 * (VS Code), `{"context_servers": {...}}` (Zed), a bare `{"name": {...}}` map, a fragment
 * `"name": {...}` without the outer braces, or one entry `{"command": ...}` without a name.
 * Each entry is validated on its own, so one bad entry does not block the others; problems name
 * JSON paths, never values (a snippet may hold a key).
 */
import type { ServerConfig } from '../../../shared/config-schema.js';
import { SERVER_ID_PATTERN } from '../../../shared/config-schema.js';
import type { ImportResult } from '../../../shared/api/servers-contract.js';
import { isPlainObject, validateConfigValue } from '../config/config-parse.js';
import { findJsonSyntaxError } from '../config/json-syntax.js';

export interface ImportPlan {
  entries: Array<[string, ServerConfig]>;
  result: Omit<ImportResult, 'dryRun'>;
}

const CONTAINER_KEYS = ['mcpServers', 'servers', 'context_servers', 'mcp_servers'];

export function planImport(snippet: string, existing: Readonly<Record<string, ServerConfig>>, overwrite: boolean): ImportPlan {
  const result: ImportPlan['result'] = { added: [], replaced: [], skipped: [], problems: [] };
  const parsed = parseSnippet(snippet);
  if (!parsed.ok) {
    result.problems.push({ id: '', path: '$', message: parsed.message });
    return { entries: [], result };
  }
  const candidates = findEntries(parsed.value);
  if (candidates.length === 0) {
    result.problems.push({
      id: '',
      path: '$',
      message: 'found no server entries: paste an "mcpServers" object, or entries like "name": {"command": "npx", "args": [...]}',
    });
    return { entries: [], result };
  }
  const entries: ImportPlan['entries'] = [];
  for (const [id, raw] of candidates) {
    if (!SERVER_ID_PATTERN.test(id)) {
      result.problems.push({ id, path: `$.mcpServers[${JSON.stringify(id)}]`, message: 'invalid server name: use letters, digits, ".", "_" and "-" (max 64), starting with a letter or digit' });
      continue;
    }
    const entry = normalizeEntry(raw);
    const checked = validateConfigValue({ mcpServers: { [id]: entry } }, 'snippet');
    if (!checked.ok) {
      for (const p of checked.problems) result.problems.push({ id, path: p.path, message: p.message });
      continue;
    }
    if (existing[id] && !overwrite) {
      result.skipped.push(id);
      continue;
    }
    (existing[id] ? result.replaced : result.added).push(id);
    entries.push([id, entry as ServerConfig]);
  }
  return { entries, result };
}

function parseSnippet(snippet: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const text = snippet.trim().replace(/^\uFEFF/, '');
  if (text === '') return { ok: false, message: 'the snippet is empty: paste the JSON from the server\'s README' };
  const attempts = [text];
  // A fragment such as `"fs": { ... },` copied out of a larger object.
  if (text.startsWith('"')) attempts.push(`{${text.replace(/,\s*$/, '')}}`);
  for (const attempt of attempts) {
    try {
      return { ok: true, value: JSON.parse(attempt) };
    } catch {
      // try the next shape
    }
  }
  const found = findJsonSyntaxError(text);
  return {
    ok: false,
    message: found ? `the snippet is not valid JSON: line ${found.line}, column ${found.column}: ${found.message}` : 'the snippet is not valid JSON',
  };
}

function findEntries(value: unknown): Array<[string, unknown]> {
  if (!isPlainObject(value)) return [];
  for (const key of CONTAINER_KEYS) {
    const container = value[key];
    if (isPlainObject(container)) return Object.entries(container);
  }
  if (looksLikeEntry(value)) return [[nameFor(value), value]];
  const entries = Object.entries(value).filter(([, v]) => looksLikeEntry(v));
  return entries.length > 0 ? Object.entries(value) : [];
}

function looksLikeEntry(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && ('command' in value || 'url' in value || 'serverUrl' in value || 'httpUrl' in value);
}

/** Other clients' spellings of a remote URL (Windsurf `serverUrl`, Gemini `httpUrl`). */
function normalizeEntry(raw: unknown): unknown {
  if (!isPlainObject(raw)) return raw;
  const entry = { ...raw };
  for (const key of ['serverUrl', 'httpUrl']) {
    if (typeof entry[key] === 'string' && entry.url === undefined) {
      entry.url = entry[key];
      delete entry[key];
      if (key === 'httpUrl' && entry.type === undefined) entry.type = 'http';
    }
  }
  return entry;
}

/** A name for an unnamed entry, from its package or URL: `@scope/server-github@1` → `github`. */
export function nameFor(entry: Record<string, unknown>): string {
  let base = '';
  if (typeof entry.url === 'string') {
    try {
      base = new URL(entry.url).hostname.split('.').filter((p) => p !== 'www' && p !== 'mcp' && p !== 'api')[0] ?? '';
    } catch {
      base = '';
    }
  } else if (Array.isArray(entry.args)) {
    const pkg = [...entry.args].reverse().find((a): a is string => typeof a === 'string' && /^(@[\w.-]+\/)?[\w.-]+(@[\w.^~-]+)?$/.test(a) && !a.startsWith('-'));
    base = pkg?.replace(/^@[\w.-]+\//, '').replace(/@.*$/, '') ?? '';
  }
  if (!base && typeof entry.command === 'string') base = entry.command.split(/[\\/]/).pop() ?? '';
  const name = base.replace(/^(mcp-server-|server-)/, '').replace(/(-mcp-server|-mcp|-server)$/, '').replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return name.slice(0, 64) || 'server';
}
