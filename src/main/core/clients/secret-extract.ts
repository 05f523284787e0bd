/**
 * Finding the credentials people paste into client configs (API keys in env, tokens in headers,
 * passwords in connection URLs) so that import can move them into the secret store and leave
 * `${secret:NAME}` references behind. It errs on the side of moving: a value moved needlessly
 * still works through its reference; a key left behind would sit in plain text in config.json.
 */
import { secretName } from '../config/config-names.js';
import type { HttpEntry, NeutralEntry, StdioEntry } from './neutral-entry.js';

export interface ExtractedSecret {
  /** Proposed store name (the caller resolves collisions). */
  name: string;
  value: string;
  /** Where it was found, e.g. `env.GITHUB_TOKEN` (never the value). */
  where: string;
}

/** Names that announce a credential. "author", "keyboard" and friends are excluded on purpose. */
const SECRET_NAME = /(api[_-]?key|apikey|(^|[_.-])key($|[_.-])|secret|token|passw|pwd|credential|cookie|auth(?!or)|private|access[_-]?key|session|license)/i;
/** Values that are credentials whatever their name: well-known key prefixes and JWTs. */
const SECRET_VALUE = /^(sk-|sk_live_|sk_test_|rk_live_|pk_live_|ghp_|gho_|ghu_|ghs_|github_pat_|glpat-|xox[abpr]-|AKIA|ASIA|AIza|hf_|npm_|pypi-|dop_v1_|eyJ[A-Za-z0-9_-]{10,}\.)/;

/** True for placeholders and references that are not secrets themselves. */
function isPlaceholderOrReference(value: string): boolean {
  const v = value.trim();
  return (
    v === '' ||
    /\$\{[^}]*\}/.test(v) || // ${secret:X}, ${env:X}, ${input:X}, ${X}
    /^\$[A-Za-z_][A-Za-z0-9_]*$/.test(v) ||
    /^\{env:[^}]+\}$/.test(v) ||
    /^%[A-Za-z_][A-Za-z0-9_]*%$/.test(v) ||
    /^<.*>$/.test(v) ||
    /^(your|my)[_\s-]/i.test(v) ||
    /^(x+|\*+|changeme|none|null|true|false|\d{1,5})$/i.test(v)
  );
}

export function looksSecret(name: string, value: string): boolean {
  if (isPlaceholderOrReference(value)) return false;
  return SECRET_NAME.test(name) || SECRET_VALUE.test(value.trim()) || urlPassword(value) !== undefined;
}

function urlPassword(value: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return undefined;
  try {
    const url = new URL(value);
    return url.password ? decodeURIComponent(url.password) : undefined;
  } catch {
    return undefined;
  }
}

const ref = (name: string): string => `\${secret:${name}}`;

/** The entry with its credentials replaced by references, and the credentials found. */
export function extractSecrets(serverId: string, entry: NeutralEntry): { entry: NeutralEntry; secrets: ExtractedSecret[] } {
  const secrets: ExtractedSecret[] = [];
  const take = (field: string, where: string, value: string): string => {
    const name = secretName(serverId, field);
    secrets.push({ name, value, where });
    return ref(name);
  };
  // A URL keeps its shape: only the password and credential-looking query values become references.
  const cleanUrl = (url: string, field: string, where: string): string => {
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return url;
    let out = url;
    const password = urlPassword(url);
    if (password !== undefined) {
      const raw = new URL(url).password;
      // Stored as written (URL-encoded): the reference is substituted back as text. When the parser
      // re-encoded it and it is not found verbatim, the whole URL becomes the secret.
      if (!out.includes(`:${raw}@`)) return take(field, where, url);
      out = out.replace(`:${raw}@`, `:${take(`${field}-password`, `${where} (password)`, raw)}@`);
    }
    const query = out.indexOf('?');
    if (query >= 0) {
      const params = out.slice(query + 1).split('&').map((pair) => {
        const eq = pair.indexOf('=');
        if (eq < 0) return pair;
        const key = pair.slice(0, eq);
        // Stored as written (still URL-encoded): the reference is substituted back as text.
        const value = pair.slice(eq + 1);
        return looksSecret(key, decodeURIComponentSafe(value)) ? `${key}=${take(`${field}-${key}`, `${where} (${key})`, value)}` : pair;
      });
      out = `${out.slice(0, query)}?${params.join('&')}`;
    }
    return out;
  };

  if (entry.kind === 'stdio') {
    const next: StdioEntry = { ...entry, args: [...entry.args], env: { ...entry.env } };
    for (const [key, value] of Object.entries(entry.env)) {
      if (!looksSecret(key, value)) continue;
      next.env[key] = urlPassword(value) !== undefined && !SECRET_NAME.test(key) ? cleanUrl(value, key, `env.${key}`) : take(key, `env.${key}`, value);
    }
    next.args = entry.args.map((arg, i) => {
      const flag = /^(--?[A-Za-z0-9_-]+)=(.*)$/.exec(arg);
      if (flag && looksSecret(flag[1]!, flag[2]!)) return `${flag[1]}=${take(`arg.${flag[1]!.replace(/^-+/, '')}`, `args[${i}]`, flag[2]!)}`;
      const previous = entry.args[i - 1];
      if (previous && /^--?[A-Za-z0-9_-]+$/.test(previous) && SECRET_NAME.test(previous) && !arg.startsWith('-') && looksSecret(previous, arg)) {
        return take(`arg.${previous.replace(/^-+/, '')}`, `args[${i}]`, arg);
      }
      if (urlPassword(arg) !== undefined) return cleanUrl(arg, `arg${i}`, `args[${i}]`);
      if (SECRET_VALUE.test(arg)) return take(`arg${i}`, `args[${i}]`, arg);
      return arg;
    });
    return { entry: next, secrets };
  }

  const next: HttpEntry = { ...entry, headers: { ...entry.headers } };
  next.url = cleanUrl(entry.url, 'url', 'url');
  for (const [key, value] of Object.entries(entry.headers)) {
    const scheme = /^(Bearer|Basic|Token|Bot)\s+(\S.*)$/i.exec(value.trim());
    if (scheme && !isPlaceholderOrReference(scheme[2]!)) {
      next.headers[key] = `${scheme[1]} ${take(key, `headers.${key}`, scheme[2]!)}`;
    } else if (looksSecret(key, value)) {
      next.headers[key] = take(key, `headers.${key}`, value);
    }
  }
  return { entry: next, secrets };
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
