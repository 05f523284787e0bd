/**
 * A member's rule for one kind of item (tools, prompts, resources): `true` everything, `false`
 * nothing, a list of globs (only those), or `{allow, deny}` where deny wins. Globs: `*` any run
 * of characters (slashes included, so `file:///*` covers a tree), `?` one character; everything
 * else is literal.
 */
import type { ItemRule } from '../../../shared/config-schema.js';

export interface ItemFilter {
  allows(name: string): boolean;
  /** The deny glob that refuses `name`, if a pattern (not the exact name) does. */
  deniedBy(name: string): string | undefined;
}

const cache = new Map<string, RegExp>();

/** `*` and `?` as wildcards, the rest literal; anchored. Compiled once per glob. */
export function globToRegExp(glob: string): RegExp {
  let re = cache.get(glob);
  if (re) return re;
  let source = '';
  for (const ch of glob) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[.+^${}()|[\]\\/-]/g, '\\$&');
  }
  re = new RegExp(`^${source}$`, 's');
  if (cache.size > 10_000) cache.clear();
  cache.set(glob, re);
  return re;
}

export function matchesAny(name: string, globs: readonly string[] | undefined): boolean {
  return globs !== undefined && globs.some((g) => g === name || globToRegExp(g).test(name));
}

export function compileRule(rule: ItemRule | undefined): ItemFilter {
  if (rule === undefined || rule === true) return { allows: () => true, deniedBy: () => undefined };
  if (rule === false) return { allows: () => false, deniedBy: () => undefined };
  const allow = Array.isArray(rule) ? rule : rule.allow;
  const deny = Array.isArray(rule) ? undefined : rule.deny;
  return {
    allows: (name) => (allow === undefined || matchesAny(name, allow)) && !matchesAny(name, deny),
    deniedBy: (name) => deny?.find((g) => g !== name && globToRegExp(g).test(name)),
  };
}
