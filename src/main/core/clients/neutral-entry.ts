/**
 * A server entry independent of any client's spelling. Each client's shape converts to and from
 * this, so export, import and doctor reason about one form instead of thirteen.
 */

export interface StdioEntry {
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface HttpEntry {
  kind: 'http';
  url: string;
  headers: Record<string, string>;
  /** `auto`: the client did not say (Streamable HTTP, falling back to legacy SSE). */
  transport: 'http' | 'sse' | 'auto';
}

export type NeutralEntry = StdioEntry | HttpEntry;

/** What reading a client's entry gives: an entry, or why Patchbay cannot use it. */
export type ReadEntry = NeutralEntry | { kind: 'unsupported'; reason: string };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The string values of a map; anything else (numbers, nested objects) is dropped. */
export function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(value)) return out;
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'string') out[key] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[key] = String(v);
  }
  return out;
}

export function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string');
}

export function stdioEntry(command: string, args: unknown, env: unknown, cwd?: unknown): StdioEntry {
  const entry: StdioEntry = { kind: 'stdio', command, args: stringList(args), env: stringMap(env) };
  if (typeof cwd === 'string' && cwd !== '') entry.cwd = cwd;
  return entry;
}

export function httpEntry(url: string, headers: unknown, transport: HttpEntry['transport']): HttpEntry {
  return { kind: 'http', url, headers: stringMap(headers), transport };
}
