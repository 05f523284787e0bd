/**
 * Turns the text of a config file into a validated config, or into a list of problems a person
 * can fix: each one names the JSON path (`$.mcpServers.fs.command`) and says what is wrong.
 * Messages name types and keys, never values: a config may hold a pasted API key.
 */
import {
  patchbayConfigSchema,
  remoteServerSchema,
  stdioServerSchema,
  type PatchbayConfig,
} from '../../../shared/config-schema.js';
import { findJsonSyntaxError } from './json-syntax.js';
import { profileProblems } from './profile-problems.js';

export interface ConfigProblem {
  /** JSON path of the offending value, e.g. `$.mcpServers.fs.command` or `$.mcpServers["my-db"].env.PORT`. */
  path: string;
  message: string;
  /** Set for JSON syntax errors (1-based). */
  line?: number;
  column?: number;
}

export type ConfigParseResult =
  { ok: true; config: PatchbayConfig } | { ok: false; source: string; problems: ConfigProblem[] };

interface IssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: unknown;
  issues?: IssueLike[];
}

const REMOTE_TYPES: readonly string[] = remoteServerSchema.shape.type.unwrap().options;
const SERVER_EXAMPLE =
  '{"command": "npx", "args": ["-y", "some-mcp-server"]} or {"url": "https://example.com/mcp"}';

/** Parse and validate config text. `source` (usually the file path) is carried into failures for messages. */
export function parseConfigText(text: string, source: string): ConfigParseResult {
  // Editors on Windows like to save a BOM; JSON.parse rejects it.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    // JSON.parse's own message is not used: V8 quotes a slice of the text, which may be a secret.
    const found = findJsonSyntaxError(body);
    const problem: ConfigProblem = found
      ? {
          path: '$',
          message: `invalid JSON at line ${found.line}, column ${found.column}: ${found.message}`,
          line: found.line,
          column: found.column,
        }
      : { path: '$', message: 'invalid JSON' };
    return { ok: false, source, problems: [problem] };
  }
  return validateConfigValue(value, source);
}

/** Validate an already-parsed config document (also used on the result of an update before it is written). */
export function validateConfigValue(value: unknown, source: string): ConfigParseResult {
  if (!isPlainObject(value)) {
    return {
      ok: false,
      source,
      problems: [
        {
          path: '$',
          message: `the config must be a JSON object such as {"mcpServers": {}}, got ${typeName(value)}`,
        },
      ],
    };
  }
  const problems: ConfigProblem[] = [];
  const parsed = patchbayConfigSchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues as IssueLike[]) {
      const [first, id] = issue.path;
      if (first === 'mcpServers' && typeof id === 'string') {
        if (issue.code === 'invalid_key') {
          problems.push({
            path: formatJsonPath(issue.path),
            message: id.startsWith('@')
              ? 'invalid server id: it may not start with "@" (/mcp/@<name> is a profile\'s endpoint)'
              : `invalid server id: ${issue.issues?.[0]?.message ?? issue.message}`,
          });
        }
        // Entries are checked one by one below: zod's union error ("Invalid input") hides which
        // field is wrong, so each entry is matched against the one schema it was meant for.
        continue;
      }
      if (first === 'profiles' && typeof id === 'string') {
        if (issue.code === 'invalid_key') {
          problems.push({
            path: formatJsonPath(issue.path),
            message: `invalid profile name: ${issue.issues?.[0]?.message ?? issue.message}`,
          });
        }
        // Profiles are checked one by one below, with messages that say which part is wrong.
        continue;
      }
      problems.push(issueToProblem(issue, [], value));
    }
  }
  const servers = value.mcpServers;
  if (isPlainObject(servers)) {
    for (const [id, entry] of Object.entries(servers))
      problems.push(...serverProblems(id, entry, value));
  }
  const profiles = value.profiles;
  if (isPlainObject(profiles)) {
    for (const [name, entry] of Object.entries(profiles)) {
      for (const p of profileProblems(name, entry))
        problems.push({ path: formatJsonPath(p.path), message: p.message });
    }
  }
  if (problems.length > 0) return { ok: false, source, problems: dedupe(problems) };

  // The document itself is the config, not zod's output: zod moves known keys first, and a
  // write must keep the user's key order. The schema has no transforms, so nothing else differs.
  const config = structuredClone(value);
  if (!('mcpServers' in config)) config.mcpServers = {};
  return { ok: true, config: config as PatchbayConfig };
}

function serverProblems(id: string, entry: unknown, root: unknown): ConfigProblem[] {
  const base = ['mcpServers', id];
  const at = formatJsonPath(base);
  if (!isPlainObject(entry)) {
    return [
      {
        path: at,
        message: `a server must be an object such as ${SERVER_EXAMPLE}, got ${typeName(entry)}`,
      },
    ];
  }
  const hasCommand = 'command' in entry;
  const hasUrl = 'url' in entry;
  if (hasCommand && hasUrl) {
    return [
      {
        path: at,
        message:
          'has both "command" (a local stdio server) and "url" (a remote server); keep only one',
      },
    ];
  }
  let schema: typeof stdioServerSchema | typeof remoteServerSchema;
  if ('type' in entry) {
    const type = entry.type;
    if (type === 'stdio') schema = stdioServerSchema;
    else if (typeof type === 'string' && REMOTE_TYPES.includes(type)) schema = remoteServerSchema;
    else {
      const allowed = ['stdio', ...REMOTE_TYPES].map((t) => `"${t}"`).join(', ');
      return [
        {
          path: formatJsonPath([...base, 'type']),
          message: `unknown server type ${showShort(type)}; use one of ${allowed}`,
        },
      ];
    }
  } else if (hasCommand) schema = stdioServerSchema;
  else if (hasUrl) schema = remoteServerSchema;
  else
    return [
      {
        path: at,
        message: `needs "command" (a local stdio server) or "url" (a remote server), e.g. ${SERVER_EXAMPLE}`,
      },
    ];

  const result = schema.safeParse(entry);
  if (result.success) return [];
  return (result.error.issues as IssueLike[]).map((issue) => issueToProblem(issue, base, root));
}

function issueToProblem(issue: IssueLike, prefix: PropertyKey[], root: unknown): ConfigProblem {
  const fullPath = [...prefix, ...issue.path];
  return { path: formatJsonPath(fullPath), message: describeIssue(issue, fullPath, root) };
}

function describeIssue(issue: IssueLike, fullPath: PropertyKey[], root: unknown): string {
  if (issue.code !== 'invalid_type') return issue.message;
  const actual = valueAt(root, fullPath);
  const key = fullPath.at(-1);
  const expected = issue.expected === 'record' ? 'object' : String(issue.expected);
  if (actual === undefined) return `"${String(key)}" is required (${withArticle(expected)})`;
  const parent = fullPath.at(-2);
  if ((parent === 'env' || parent === 'headers') && expected === 'string') {
    return `${parent} values must be strings, got ${typeName(actual)} (put the value in double quotes)`;
  }
  return `must be ${withArticle(expected)}, got ${typeName(actual)}`;
}

/** `$.mcpServers.fs.args[0]`; keys that are not identifiers are quoted: `$.mcpServers["my-db"]`. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment))
      out += `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const t = typeof value;
  return t === 'object' ? 'an object' : `a ${t}`;
}

function withArticle(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

/** Only short identifier-like values are echoed, so nothing secret-looking ends up in a message. */
function showShort(value: unknown): string {
  return typeof value === 'string' && /^[\w.-]{1,32}$/.test(value) ? `"${value}"` : typeName(value);
}

function dedupe(problems: ConfigProblem[]): ConfigProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\n${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
