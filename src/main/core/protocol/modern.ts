/**
 * The modern era's wire pieces (MCP 2026-07-28): the per-request `_meta` envelope, the values the
 * HTTP headers mirror (`Mcp-Name`, `Mcp-Param-*`) with their Base64 sentinel encoding, and result
 * decorations (`resultType`, cache hints). Pure functions over plain JSON; no transport here.
 */
import { ErrorCode, isModernVersion, META } from '../../../shared/protocol.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `params._meta` of a message, when it is an object. */
export function metaOf(params: unknown): Json | undefined {
  if (!isObject(params)) return undefined;
  const meta = params._meta;
  return isObject(meta) ? meta : undefined;
}

/** Whether the params carry the modern envelope's claim (the protocol-version key, valid or not). */
export function hasEnvelopeClaim(params: unknown): boolean {
  const meta = metaOf(params);
  return meta !== undefined && META.protocolVersion in meta;
}

/** The version the envelope claims, when it is a string. */
export function envelopeVersion(params: unknown): string | undefined {
  const value = metaOf(params)?.[META.protocolVersion];
  return typeof value === 'string' ? value : undefined;
}

/** RFC 5424 severities, least severe first (server/utilities/logging "Log Levels"). */
const LOG_LEVEL_ORDER = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
const LOG_LEVELS = new Set<string>(LOG_LEVEL_ORDER);

/**
 * Whether a `notifications/message` at `level` may go to a modern request that asked for
 * `requested` (its `_meta` logLevel): never when it asked for none, else at or above it.
 */
export function logMessageWanted(requested: unknown, level: unknown): boolean {
  if (typeof requested !== 'string' || !LOG_LEVELS.has(requested)) return false;
  const at = LOG_LEVEL_ORDER.indexOf(level as (typeof LOG_LEVEL_ORDER)[number]);
  return at === -1 || at >= LOG_LEVEL_ORDER.indexOf(requested as (typeof LOG_LEVEL_ORDER)[number]);
}

/** The envelope's problems (`{ key, problem }`), missing keys first; empty when it is valid. */
export function envelopeIssues(meta: Json): Array<{ key: string; problem: string }> {
  const issues: Array<{ key: string; problem: string }> = [];
  for (const key of [META.protocolVersion, META.clientCapabilities]) if (!(key in meta)) issues.push({ key, problem: 'missing' });
  if (META.protocolVersion in meta && typeof meta[META.protocolVersion] !== 'string') issues.push({ key: META.protocolVersion, problem: 'expected a protocol version string' });
  if (META.clientCapabilities in meta && !isObject(meta[META.clientCapabilities])) issues.push({ key: META.clientCapabilities, problem: 'expected an object' });
  if (META.clientInfo in meta) {
    const info = meta[META.clientInfo];
    if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') issues.push({ key: META.clientInfo, problem: 'expected { name, version } strings' });
  }
  if (META.logLevel in meta && !LOG_LEVELS.has(meta[META.logLevel] as string)) issues.push({ key: META.logLevel, problem: `expected one of ${[...LOG_LEVELS].join(', ')}` });
  return issues;
}

/** The body value a method's `Mcp-Name` header mirrors: `params.name` or `params.uri`. */
export function nameSource(method: string, params: unknown): { field: 'name' | 'uri'; value: string | undefined } | undefined {
  const field = method === 'tools/call' || method === 'prompts/get' ? 'name' : method === 'resources/read' ? 'uri' : undefined;
  if (field === undefined) return undefined;
  const value = isObject(params) && typeof params[field] === 'string' ? (params[field] as string) : undefined;
  return { field, value };
}

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';

/** A header value with RFC 9110's optional whitespace trimmed. */
export function trimOws(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

/**
 * A header value as the body value it mirrors: a `=?base64?…?=` sentinel decoded (UTF-8), a plain
 * one as is. Undefined when the sentinel is malformed or the plain value has characters a header
 * may not carry.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX) && value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length) {
    const b64 = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return undefined;
    const decoded = Buffer.from(b64, 'base64');
    const text = decoded.toString('utf8');
    // Reject what does not round-trip (invalid UTF-8).
    return Buffer.from(text, 'utf8').equals(decoded) ? text : undefined;
  }
  return /^[\x20-\x7e\t]*$/.test(value) ? value : undefined;
}

/** A value encoded for a header: as is when safe, else the Base64 sentinel (SEP-2243 value encoding). */
export function encodeHeaderValue(value: string): string {
  const safe = /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/.test(value) && !(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX));
  return safe || value === '' ? value : `${SENTINEL_PREFIX}${Buffer.from(value, 'utf8').toString('base64')}${SENTINEL_SUFFIX}`;
}

/** A parameter value's header form (strings as is, integers in decimal, booleans lowercase), or undefined. */
export function paramHeaderString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** One `x-mcp-header` declaration of a tool: the header's name part and the argument path it mirrors. */
export interface ParamHeaderDeclaration {
  header: string;
  path: string[];
}

/** The `x-mcp-header` declarations in a tool's `inputSchema` (nested `properties` included). */
export function paramHeaderDeclarations(inputSchema: unknown): ParamHeaderDeclaration[] {
  const out: ParamHeaderDeclaration[] = [];
  const walk = (schema: unknown, path: string[], depth: number): void => {
    if (!isObject(schema) || depth > 16) return;
    const props = schema.properties;
    if (!isObject(props)) return;
    for (const [key, child] of Object.entries(props)) {
      if (!isObject(child)) continue;
      if (typeof child['x-mcp-header'] === 'string') out.push({ header: child['x-mcp-header'], path: [...path, key] });
      walk(child, [...path, key], depth + 1);
    }
  };
  walk(inputSchema, [], 0);
  return out;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);
/** Keywords whose values are instance data, not schemas: an `x-mcp-header` key in them is not an annotation. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

/**
 * Why a tool's `x-mcp-header` annotations break the spec's constraints (2026-07-28
 * streamable-http "Custom Headers from Tool Parameters"), or undefined when they are valid (or
 * absent): an empty or non-token value, a value repeated (case-insensitively), a parameter that
 * is not a string, integer or boolean, or an annotation not reachable through `properties` alone.
 */
export function invalidHeaderAnnotation(inputSchema: unknown): string | undefined {
  const seen = new Set<string>();
  let problem: string | undefined;
  const walk = (node: unknown, path: string, staticPath: boolean, isProperty: boolean, depth: number): void => {
    if (problem !== undefined || depth > 32) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, path, false, false, depth + 1);
      return;
    }
    if (!isObject(node)) return;
    if ('x-mcp-header' in node) {
      const value = node['x-mcp-header'];
      const types = Array.isArray(node.type) ? node.type : [node.type];
      if (!staticPath || !isProperty) problem = `x-mcp-header at ${path || 'the schema root'} is not reachable through properties alone`;
      else if (typeof value !== 'string' || value === '') problem = `x-mcp-header at ${path} is empty`;
      else if (!TOKEN.test(value)) problem = `x-mcp-header "${value}" at ${path} is not an HTTP header name token`;
      else if (seen.has(value.toLowerCase())) problem = `x-mcp-header "${value}" appears more than once`;
      else if (types.length !== 1 || !HEADER_TYPES.has(types[0] as string)) problem = `x-mcp-header "${value}" is on ${path}, whose type is not string, integer or boolean`;
      if (problem !== undefined) return;
      seen.add((value as string).toLowerCase());
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'properties' && isObject(child)) {
        for (const [name, prop] of Object.entries(child)) walk(prop, path ? `${path}.${name}` : name, staticPath, true, depth + 1);
      } else if (typeof child === 'object' && child !== null && !DATA_KEYWORDS.has(key)) {
        // Any other keyword (items, oneOf, if/then, $defs, …) leaves the static chain.
        walk(child, path, false, false, depth + 1);
      }
    }
  };
  walk(inputSchema, '', true, false, 0);
  return problem;
}

/**
 * A `tools/list` result without the tools whose `x-mcp-header` annotations are invalid, as a
 * Streamable HTTP client must give it (the same spec section), and what was dropped; the result
 * itself when nothing was.
 */
export function withoutInvalidHeaderTools(result: unknown): { result: unknown; dropped: Array<{ name: string; reason: string }> } {
  const tools = isObject(result) ? result.tools : undefined;
  if (!Array.isArray(tools)) return { result, dropped: [] };
  const dropped: Array<{ name: string; reason: string }> = [];
  const kept = tools.filter((tool: unknown) => {
    const reason = isObject(tool) ? invalidHeaderAnnotation(tool.inputSchema) : undefined;
    if (reason !== undefined) dropped.push({ name: String((tool as Json).name), reason });
    return reason === undefined;
  });
  return dropped.length === 0 ? { result, dropped } : { result: { ...(result as Json), tools: kept }, dropped };
}

/** The value at an argument path, when present. */
export function valueAtPath(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** What a client has learned of a server's tools' `x-mcp-header` declarations (tool name → declarations). */
export class ToolHeaderDeclarations {
  private readonly tools = new Map<string, ParamHeaderDeclaration[]>();

  /** Learns from one page of a `tools/list` result. */
  learn(result: unknown): void {
    const tools = (result as { tools?: unknown } | undefined)?.tools;
    if (!Array.isArray(tools)) return;
    for (const tool of tools as Array<{ name?: unknown; inputSchema?: unknown }>) {
      if (typeof tool?.name !== 'string') continue;
      const decls = paramHeaderDeclarations(tool.inputSchema);
      if (decls.length > 0) this.tools.set(tool.name, decls);
      else this.tools.delete(tool.name);
    }
  }

  of(tool: string): readonly ParamHeaderDeclaration[] {
    return this.tools.get(tool) ?? [];
  }
}

/**
 * The headers a modern client puts on a request's POST (2026-07-28 basic/transports/
 * streamable-http): `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` for the methods that name
 * a target, and the `Mcp-Param-*` mirrors of the tool's declared parameters.
 */
export function modernRequestHeaders(request: { method: string; params?: unknown }, version: string, tools?: ToolHeaderDeclarations): Record<string, string> {
  const h: Record<string, string> = { 'MCP-Protocol-Version': version, 'Mcp-Method': request.method };
  const target = nameSource(request.method, request.params);
  if (target?.value !== undefined) h['Mcp-Name'] = encodeHeaderValue(target.value);
  if (request.method === 'tools/call' && tools && isObject(request.params) && typeof request.params.name === 'string') {
    for (const decl of tools.of(request.params.name)) {
      const value = paramHeaderString(valueAtPath(request.params.arguments, decl.path));
      if (value !== undefined) h[`Mcp-Param-${decl.header}`] = encodeHeaderValue(value);
    }
  }
  return h;
}

/** The modern codes a server only answers with if it speaks the modern era (SEP-2243, SEP-2575). */
const MODERN_CODES = new Set<number>([ErrorCode.HeaderMismatch, ErrorCode.MissingRequiredClientCapability, ErrorCode.UnsupportedProtocolVersion]);

/** Versions named by an error's `data.supported`, when it names any. */
export function supportedVersionsOf(error: { data?: unknown } | undefined): string[] | undefined {
  const supported = (error?.data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) && supported.every((v) => typeof v === 'string') ? (supported as string[]) : undefined;
}

/**
 * Whether an error answer is "a recognized modern JSON-RPC error" (basic/versioning): a code
 * only the modern era defines, or an unsupported-version error listing a modern revision.
 */
export function isModernError(error: { code?: unknown; data?: unknown } | undefined): boolean {
  if (!error || typeof error.code !== 'number') return false;
  if (MODERN_CODES.has(error.code)) return true;
  return (supportedVersionsOf(error) ?? []).some(isModernVersion);
}
