/**
 * Removes secrets from captured text before it becomes an event: every value of the secret
 * store, the hub token, and the env/header values the config marks secret, wherever they appear
 * (a tool argument, a tool result, a stderr line, a header). Header values whose name says they
 * are credentials (Authorization, cookies, …) are replaced whole.
 *
 * Values are matched as written and as they look inside a JSON string (escaped quotes,
 * backslashes, `\/`); a message that uses `\uXXXX` escapes is parsed and its strings checked too.
 */
import { jsonSpellings } from '../protocol/json-spellings.js';
import { decodeHeaderValue } from '../protocol/modern.js';

export interface SecretValue {
  /** Shown in place of the value: `[secret:<label>]`. Never the value itself. */
  label: string;
  value: string;
}

/** Shorter values would mask ordinary words and numbers everywhere (as the log scrubber does). */
export const MIN_SECRET_LENGTH = 4;

/** How a modern header value that is not plain text starts (2026-07-28 `Mcp-Param-*`). */
const BASE64_SENTINEL = '=?base64?';

/** Header (and env) names whose values are credentials, whatever their value looks like. */
const SECRET_NAME = /authorization|cookie|token|secret|passw(or)?d|api[-_]?key|access[-_]?key|private[-_]?key|credential|session[-_]?key/i;

interface Needle {
  find: string;
  mask: string;
}

export class Redactor {
  private readonly sources = new Map<string, SecretValue[]>();
  private needles: Needle[] = [];
  private extraNames: Set<string> = new Set();
  /** Header names seen, and whether each is a credential (a handful of names, asked per request). */
  private readonly nameCache = new Map<string, boolean>();
  /** The longest needle: how far past a cut a secret can reach. */
  maxNeedle = 0;
  /** Changes whenever the secrets or names change (what was redacted before may differ now). */
  version = 0;

  /** Replaces the values of one source (`store`, `token`, `config`, `server:<id>`). */
  setSource(source: string, values: SecretValue[]): void {
    this.sources.set(source, values);
    this.rebuild();
  }

  /** Names (case-insensitive) the config marks secret, besides the built-in pattern. */
  setSecretNames(names: readonly string[]): void {
    this.extraNames = new Set(names.map((n) => n.toLowerCase()));
    this.nameCache.clear();
    this.version++;
  }

  isSecretName(name: string): boolean {
    let secret = this.nameCache.get(name);
    if (secret === undefined) {
      secret = SECRET_NAME.test(name) || this.extraNames.has(name.toLowerCase());
      if (this.nameCache.size < 1000) this.nameCache.set(name, secret);
    }
    return secret;
  }

  get size(): number {
    return this.needles.length;
  }

  /** The values of some sources (`store`, `token`), for checks of their own (the secret checks). */
  valuesOf(...sources: string[]): SecretValue[] {
    return sources.flatMap((source) => this.sources.get(source) ?? []);
  }

  /** Text with every known secret masked. Returns the same string when nothing matched. */
  redact(text: string): string {
    let out = text;
    for (const n of this.needles) {
      if (out.includes(n.find)) out = out.split(n.find).join(n.mask);
    }
    return out;
  }

  /**
   * JSON text with every secret masked; still valid JSON unless a secret sat outside a string
   * (a number), in which case `valid` is false and the caller keeps it as a plain string.
   */
  redactJson(text: string): { text: string; valid: boolean } {
    const out = this.maskJson(text);
    return { text: out, valid: out === text || parses(out) };
  }

  /**
   * JSON text with every secret masked, as valid JSON: the text itself when nothing matched (the
   * common case, with no allocation: this runs for every captured message), else the masked
   * text, or a JSON string holding it when a secret sat outside a string.
   */
  redactJsonText(text: string): string {
    const out = this.maskJson(text);
    return out === text || parses(out) ? out : JSON.stringify(out);
  }

  /** Secrets masked as written and as escaped inside JSON strings; `text` itself when none. */
  private maskJson(text: string): string {
    if (this.needles.length === 0) return text;
    const out = this.redact(text);
    return out.includes('\\u') ? this.redactEscaped(out) : out;
  }

  /** Header values as strings; credential headers replaced whole, secrets masked in the rest. */
  redactHeaders(headers: Record<string, string | string[] | number | undefined>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name in headers) {
      const value = headers[name];
      if (value === undefined) continue;
      if (this.isSecretName(name)) {
        out[name] = '[redacted]';
        continue;
      }
      const text = typeof value === 'string' ? value : Array.isArray(value) ? value.join(', ') : String(value);
      out[name] = text.length < MIN_SECRET_LENGTH ? text : this.redact(text);
      // A modern `Mcp-Param-*` value may be base64 (`=?base64?…?=`): a secret inside is masked whole.
      if (out[name] === text && text.startsWith(BASE64_SENTINEL)) {
        const decoded = decodeHeaderValue(text);
        if (decoded !== undefined && this.redact(decoded) !== decoded) out[name] = '[redacted]';
      }
    }
    return out;
  }

  /** `\u` escapes can spell a secret that no plain search finds: check the decoded strings. */
  private redactEscaped(text: string): string {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return text;
    }
    let changed = false;
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') {
        const r = this.redact(v);
        if (r !== v) changed = true;
        return r;
      }
      if (Array.isArray(v)) return v.map(walk);
      if (v !== null && typeof v === 'object') {
        const o: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) o[walk(k) as string] = walk(x);
        return o;
      }
      return v;
    };
    const walked = walk(value);
    return changed ? JSON.stringify(walked) : text;
  }

  private rebuild(): void {
    const seen = new Set<string>();
    const needles: Needle[] = [];
    for (const values of this.sources.values()) {
      for (const { label, value } of values) {
        if (value.length < MIN_SECRET_LENGTH || seen.has(value)) continue;
        seen.add(value);
        const mask = `[secret:${label.replace(/[^A-Za-z0-9_.:-]/g, '_')}]`;
        for (const find of jsonSpellings(value)) needles.push({ find, mask });
      }
    }
    // Longest first, so a secret that contains another is masked whole.
    needles.sort((a, b) => b.find.length - a.find.length);
    this.needles = needles;
    this.maxNeedle = needles[0]?.find.length ?? 0;
    this.version++;
  }
}

/**
 * The values a server's config marks secret: whatever a `${secret:…}` reference resolved to
 * (anywhere in the entry), and every string whose key is a secret name (an env var
 * `GITHUB_TOKEN`, a header `Authorization`, an OAuth `clientSecret`, or a name the config lists).
 */
export function configuredSecretValues(serverId: string, configured: unknown, resolved: unknown, redactor: Redactor): SecretValue[] {
  const out: SecretValue[] = [];
  const walk = (before: unknown, after: unknown, path: string[]): void => {
    if (typeof after === 'string') {
      const key = path[path.length - 1] ?? '';
      // A name says "credential" only inside a map of values (env, headers, oauth): the entry's own
      // top-level keys are Patchbay's settings (`"secretCheck": "mask"` is no secret).
      if (after !== before || (path.length > 1 && redactor.isSecretName(key))) out.push({ label: [serverId, ...path].join('.'), value: after });
      return;
    }
    if (after === null || typeof after !== 'object') return;
    const b = before !== null && typeof before === 'object' ? (before as Record<string, unknown>) : {};
    for (const [k, v] of Object.entries(after as Record<string, unknown>)) walk(b[k], v, [...path, k]);
  };
  walk(configured, resolved, []);
  return out;
}

function parses(json: string): boolean {
  try {
    JSON.parse(json);
    return true;
  } catch {
    return false;
  }
}
