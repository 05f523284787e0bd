/**
 * How each client spells a server entry, both ways. Writers emit only the keys the client
 * documents (an unknown key can make a strict client reject the whole file); readers accept the
 * variants found in the wild (older spellings, other tools' output).
 */
import { httpEntry, isRecord, stdioEntry, stringList, type HttpEntry, type NeutralEntry, type ReadEntry, type StdioEntry } from './neutral-entry.js';

export interface EntryShape {
  /** The client's object for a stdio entry; absent when the client cannot launch processes. */
  writeStdio?(entry: StdioEntry, name: string): Record<string, unknown>;
  /** The client's object for a URL entry; absent when the client only takes stdio entries. */
  writeHttp?(entry: HttpEntry, name: string): Record<string, unknown>;
  read(raw: unknown): ReadEntry;
}

const notObject: ReadEntry = { kind: 'unsupported', reason: 'the entry is not an object' };
const noTransport: ReadEntry = { kind: 'unsupported', reason: 'the entry has neither a command nor a URL' };

function withEnv(base: Record<string, unknown>, key: string, env: Record<string, string>): Record<string, unknown> {
  if (Object.keys(env).length > 0) base[key] = env;
  return base;
}

function transportOf(type: unknown, fallback: HttpEntry['transport']): HttpEntry['transport'] {
  if (type === 'sse') return 'sse';
  if (typeof type === 'string' && /^(http|streamable[-_]?http)$/i.test(type)) return 'http';
  return fallback;
}

/**
 * The common `mcpServers` spelling: `{command, args, env}` and a URL under `urlKey` with
 * `headers`. `type` adds the client's type tags (`stdio` / `http`) when it wants them.
 */
function mcpJsonShape(options: {
  urlKey?: string;
  /** Other keys a URL may sit under when reading, with the transport they imply. */
  readUrlKeys?: Array<[string, HttpEntry['transport']]>;
  stdioType?: string;
  httpType?: string;
  /** The transport a URL without a type means to this client. */
  untyped?: HttpEntry['transport'];
}): EntryShape {
  const urlKey = options.urlKey;
  const shape: EntryShape = {
    writeStdio: (e) => {
      const out: Record<string, unknown> = options.stdioType ? { type: options.stdioType } : {};
      out.command = e.command;
      out.args = e.args;
      return withEnv(out, 'env', e.env);
    },
    read: (raw) => {
      if (!isRecord(raw)) return notObject;
      if (typeof raw.command === 'string') return stdioEntry(raw.command, raw.args, raw.env, raw.cwd);
      const keys: Array<[string, HttpEntry['transport']]> = [...(urlKey ? [[urlKey, options.untyped ?? 'auto'] as [string, HttpEntry['transport']]] : []), ...(options.readUrlKeys ?? [])];
      if (!keys.some(([k]) => k === 'url')) keys.push(['url', options.untyped ?? 'auto']);
      for (const [key, implied] of keys) {
        const url = raw[key];
        if (typeof url === 'string') return httpEntry(url, raw.headers, transportOf(raw.type ?? raw.transportType, implied));
      }
      return noTransport;
    },
  };
  if (urlKey) {
    shape.writeHttp = (e) => {
      const out: Record<string, unknown> = options.httpType ? { type: options.httpType } : {};
      out[urlKey] = e.url;
      return withEnv(out, 'headers', e.headers);
    };
  }
  return shape;
}

/** Claude Desktop: stdio only (a URL entry is not accepted; remote servers go through a bridge). */
export const claudeDesktopShape = mcpJsonShape({});

export const claudeCodeShape = mcpJsonShape({ urlKey: 'url', stdioType: 'stdio', httpType: 'http', untyped: 'http' });
export const vscodeShape = mcpJsonShape({ urlKey: 'url', stdioType: 'stdio', httpType: 'http', untyped: 'http' });
export const cursorShape = mcpJsonShape({ urlKey: 'url' });
export const lmStudioShape = mcpJsonShape({ urlKey: 'url' });
export const windsurfShape = mcpJsonShape({ urlKey: 'serverUrl', untyped: 'http' });
/**
 * Gemini CLI (0.61 and later): `url` with `type: "http"` (Streamable HTTP) or `"sse"`; a `url`
 * without a type is Streamable HTTP with a fallback to SSE. `httpUrl` is the deprecated spelling
 * of the first (Gemini warns about it), still read; older releases took a bare `url` as SSE.
 */
export const geminiShape = mcpJsonShape({ urlKey: 'url', httpType: 'http', readUrlKeys: [['httpUrl', 'http']], untyped: 'auto' });
/** Cline: a URL without a type means SSE to Cline, so ours always say `streamableHttp`. */
export const clineShape = mcpJsonShape({ urlKey: 'url', httpType: 'streamableHttp', untyped: 'sse' });

/** Zed `context_servers`: `{command, args, env}` (args required) or `{url, headers}`. */
export const zedShape: EntryShape = {
  writeStdio: (e) => withEnv({ command: e.command, args: e.args }, 'env', e.env),
  writeHttp: (e) => withEnv({ url: e.url }, 'headers', e.headers),
  read: (raw) => {
    if (!isRecord(raw)) return notObject;
    // Older Zed: {"source": "custom", "command": {"path", "args", "env"}}.
    if (isRecord(raw.command) && typeof raw.command.path === 'string') return stdioEntry(raw.command.path, raw.command.args, raw.command.env);
    if (typeof raw.command === 'string') return stdioEntry(raw.command, raw.args, raw.env);
    if (typeof raw.url === 'string') return httpEntry(raw.url, raw.headers, 'http');
    if (raw.source === 'extension' || 'settings' in raw) return { kind: 'unsupported', reason: 'a Zed extension server (its command comes from the extension)' };
    return noTransport;
  },
};

/** Codex `[mcp_servers.<name>]`: `command`/`args`/`env`, or `url` with `http_headers` (a `headers` key is ignored by Codex). */
export const codexShape: EntryShape = {
  writeStdio: (e) => withEnv({ command: e.command, args: e.args }, 'env', e.env),
  writeHttp: (e) => withEnv({ url: e.url }, 'http_headers', e.headers),
  read: (raw) => {
    if (!isRecord(raw)) return notObject;
    if (typeof raw.command === 'string') return stdioEntry(raw.command, raw.args, raw.env, raw.cwd);
    if (typeof raw.url === 'string') return httpEntry(raw.url, raw.http_headers, 'http');
    return noTransport;
  },
};

/** opencode `mcp`: `{type: "local", command: [cmd, ...args], environment}` or `{type: "remote", url, headers}`. */
export const opencodeShape: EntryShape = {
  writeStdio: (e) => withEnv({ type: 'local', command: [e.command, ...e.args], enabled: true }, 'environment', e.env),
  writeHttp: (e) => withEnv({ type: 'remote', url: e.url, enabled: true }, 'headers', e.headers),
  read: (raw) => {
    if (!isRecord(raw)) return notObject;
    if (raw.type === 'remote' && typeof raw.url === 'string') return httpEntry(raw.url, raw.headers, 'auto');
    const command = stringList(raw.command);
    const [first, ...rest] = command;
    if (first !== undefined) return stdioEntry(first, rest, raw.environment ?? raw.env);
    if (typeof raw.command === 'string') return stdioEntry(raw.command, raw.args, raw.environment ?? raw.env);
    return noTransport;
  },
};

/** Goose `extensions.<key>`: flat `{name, type: stdio, cmd, args, envs, …}` or `{type: streamable_http, uri, headers}`. */
export const gooseShape: EntryShape = {
  writeStdio: (e, name) => ({
    name,
    type: 'stdio',
    cmd: e.command,
    args: e.args,
    envs: e.env,
    env_keys: [],
    enabled: true,
    timeout: 300,
    description: `Patchbay: ${name}`,
  }),
  writeHttp: (e, name) => ({
    name,
    type: 'streamable_http',
    uri: e.url,
    headers: e.headers,
    envs: {},
    env_keys: [],
    enabled: true,
    timeout: 300,
    description: `Patchbay: ${name}`,
  }),
  read: (raw) => {
    if (!isRecord(raw)) return notObject;
    if (raw.type === 'stdio' && typeof raw.cmd === 'string') return stdioEntry(raw.cmd, raw.args, raw.envs);
    if ((raw.type === 'streamable_http' || raw.type === 'sse') && typeof raw.uri === 'string') return httpEntry(raw.uri, raw.headers, raw.type === 'sse' ? 'sse' : 'http');
    if (typeof raw.type === 'string') return { kind: 'unsupported', reason: `a Goose '${raw.type}' extension (not an MCP server Patchbay can run)` };
    return noTransport;
  },
};

/** Continue `mcpServers: [{name, command, args, env}]` or `{name, type: streamable-http, url, requestOptions: {headers}}`. */
export const continueShape: EntryShape = {
  writeStdio: (e, name) => withEnv({ name, command: e.command, args: e.args }, 'env', e.env),
  writeHttp: (e, name) => {
    const out: Record<string, unknown> = { name, type: 'streamable-http', url: e.url };
    if (Object.keys(e.headers).length > 0) out.requestOptions = { headers: e.headers };
    return out;
  },
  read: (raw) => {
    if (!isRecord(raw)) return notObject;
    if (typeof raw.command === 'string') return stdioEntry(raw.command, raw.args, raw.env, raw.cwd);
    if (typeof raw.url === 'string') {
      const headers = isRecord(raw.requestOptions) ? raw.requestOptions.headers : undefined;
      return httpEntry(raw.url, headers, transportOf(raw.type, 'auto'));
    }
    return noTransport;
  },
};

/** The client's object for an entry, or undefined when the client cannot take that kind. */
export function writeEntry(shape: EntryShape, entry: NeutralEntry, name: string): Record<string, unknown> | undefined {
  if (entry.kind === 'stdio') return shape.writeStdio?.(entry, name);
  return shape.writeHttp?.(entry, name);
}
