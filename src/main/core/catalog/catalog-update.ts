/**
 * Outdated and update (docs/catalog.md, Updates): which installed entries have a newer version in
 * the cached registry copy, and the entry a newer version makes from the same option and the
 * values already in the entry (secret references kept as they are, so no secret is asked again).
 */
import { createTwoFilesPatch } from 'diff';
import type { ServerConfig } from '../../../shared/config-schema.js';
import type { CatalogSource, DocInput, DocPackage, DocTransport } from './catalog-source.js';
import { argumentKey } from './install-inputs.js';

/**
 * Compares two version strings: semantic versions numerically (a pre-release before its release),
 * anything else as text. Positive when `a` is newer.
 */
function compareVersions(a: string, b: string): number {
  const parse = (v: string): { nums: number[]; pre: string } | undefined => {
    const m = /^v?(\d+(?:\.\d+)*)(?:-([0-9A-Za-z.-]+))?(?:\+.*)?$/.exec(v.trim());
    return m ? { nums: m[1]!.split('.').map(Number), pre: m[2] ?? '' } : undefined;
  };
  const pa = parse(a);
  const pb = parse(b);
  if (!pa || !pb) return a === b ? 0 : a.localeCompare(b);
  for (let i = 0; i < Math.max(pa.nums.length, pb.nums.length); i++) {
    const d = (pa.nums[i] ?? 0) - (pb.nums[i] ?? 0);
    if (d !== 0) return d;
  }
  if (pa.pre === pb.pre) return 0;
  if (pa.pre === '') return 1;
  if (pb.pre === '') return -1;
  return pa.pre.localeCompare(pb.pre, undefined, { numeric: true });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The `{var}` values of a filled template (`Bearer {token}` against `Bearer ${secret:x}`), or undefined when it does not match. */
function matchTemplate(template: string, filled: string, variables: Record<string, DocInput> | undefined): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[^{}]+\})/)
    .map((part) => {
      const m = /^\{([^{}]+)\}$/.exec(part);
      if (m && variables?.[m[1]!] !== undefined) {
        names.push(m[1]!);
        return '(.*?)';
      }
      return escapeRegExp(part);
    })
    .join('');
  const match = new RegExp(`^${pattern}$`, 's').exec(filled);
  if (!match) return undefined;
  return Object.fromEntries(names.map((n, i) => [n, match[i + 1]!]));
}

/** The value(s) of one input found in a written string: the whole of it, or its template's variables. */
function recover(out: Record<string, string>, key: string, doc: DocInput, written: string | undefined, decode: (v: string) => string = (v) => v): void {
  if (written === undefined) return;
  if (doc.value === undefined) {
    out[key] = decode(written);
    return;
  }
  const vars = matchTemplate(doc.value, written, doc.variables);
  for (const [name, value] of Object.entries(vars ?? {})) {
    const inner = doc.variables![name]!;
    if (inner.value === undefined) out[`${key}/${name}`] = decode(value);
  }
}

/**
 * The form values an installed entry holds for the inputs of a package or remote: env and header
 * values, URL variables, named arguments (the value after the flag). Positional arguments cannot
 * be told apart reliably and fall back to their defaults. A secret's value is its reference.
 */
export function entryValues(entry: ServerConfig, option: { pkg?: DocPackage; remote?: DocTransport }): Record<string, string> {
  const out: Record<string, string> = {};
  const e = entry as { env?: Record<string, string>; headers?: Record<string, string>; args?: string[]; url?: string };
  if (option.pkg) {
    for (const kv of option.pkg.environmentVariables ?? []) recover(out, `env:${kv.name}`, kv, e.env?.[kv.name]);
    const args = e.args ?? [];
    const named = (prefix: 'arg' | 'runtime-arg', list: DocPackage['packageArguments']): void =>
      (list ?? []).forEach((arg, i) => {
        if (arg.type !== 'named' || !arg.name) return;
        const at = args.indexOf(arg.name);
        if (at < 0) return;
        if (arg.value === undefined && arg.format === 'boolean') out[argumentKey(prefix, arg, i)] = 'true';
        else recover(out, argumentKey(prefix, arg, i), arg, args[at + 1]);
      });
    named('runtime-arg', option.pkg.runtimeArguments);
    named('arg', option.pkg.packageArguments);
  }
  if (option.remote) {
    for (const h of option.remote.headers ?? []) recover(out, `header:${h.name}`, h, e.headers?.[h.name]);
    const vars = option.remote.url && e.url ? matchTemplate(option.remote.url, e.url, option.remote.variables) : undefined;
    for (const [name, value] of Object.entries(vars ?? {})) out[`url:${name}`] = value.startsWith('${secret:') ? value : decodeURIComponent(value);
  }
  return out;
}

/** A unified diff of two entries' JSON (references, never values: entries hold no secret values). */
export function entryDiff(serverId: string, before: ServerConfig, after: ServerConfig): string {
  return createTwoFilesPatch(`${serverId} (installed)`, `${serverId} (update)`, JSON.stringify(before, null, 2) + '\n', JSON.stringify(after, null, 2) + '\n', undefined, undefined, { context: 3 });
}

/** Installed entries whose registry copy has a newer latest version (no network: the copy at hand). */
export function outdatedServers(servers: Record<string, ServerConfig>, source: Pick<CatalogSource, 'latest'>): Array<{ serverId: string; name: string; registry: string; installed: string; latest: string }> {
  const out = [];
  for (const [serverId, entry] of Object.entries(servers)) {
    const from = entry.catalog;
    if (!from) continue;
    const latest = source.latest(from.name, from.registry);
    if (latest && compareVersions(latest.document.version, from.version) > 0) out.push({ serverId, name: from.name, registry: from.registry, installed: from.version, latest: latest.document.version });
  }
  return out;
}
