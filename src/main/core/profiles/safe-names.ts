/**
 * The names a profile gives tools and prompts: safe by construction. At most 64 characters of
 * `[A-Za-z0-9_-]` (what the strictest clients accept, e.g. OpenAI's function names), qualified
 * with the server id (`github__create_issue`) unless prefixing is off, deterministic (the same
 * set of items always gets the same names, whatever order they arrive in), collision-free, and
 * reversible through the table the aggregate keeps (exposed name → server and original name).
 *
 * A name that had to change (characters replaced, too long) or that collides with another gets
 * a stable suffix: `_` and six base-32 characters of a hash of the server id and original name.
 */
import { createHash } from 'node:crypto';

export const MAX_NAME_LENGTH = 64;
export const SEPARATOR = '__';
const SUFFIX_LENGTH = 6;

export interface NamedItem {
  server: string;
  name: string;
  /** This item's own prefixing (a member's `prefix`), over the call's default. */
  prefix?: boolean;
}

/** Map key of an item: server and original name. */
export function itemKey(server: string, name: string): string {
  return `${server}\u0000${name}`;
}

function sanitize(text: string): string {
  const out = text.replace(/[^A-Za-z0-9_-]/g, '_');
  return out === '' ? '_' : out;
}

function hashOf(item: NamedItem, length: number): string {
  const digest = createHash('sha256').update(itemKey(item.server, item.name)).digest();
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let out = '';
  for (let i = 0; out.length < length; i++) out += alphabet[digest[i]! & 31];
  return out;
}

function suffixed(base: string, item: NamedItem, length: number): string {
  return `${base.slice(0, MAX_NAME_LENGTH - length - 1)}_${hashOf(item, length)}`;
}

/**
 * Exposed names for a set of items (keyed by itemKey). Unprefixed (`prefix` false, or the item's
 * own `prefix` false) the names are the items' own when they are already safe; two unprefixed
 * items of the same name collide and both take a suffix, like any collision.
 */
export function exposedNames(items: readonly NamedItem[], defaultPrefix: boolean): Map<string, string> {
  const names = new Map<string, string>();
  const byName = new Map<string, NamedItem[]>();
  const plain = new Set<string>();
  const safeOf = (item: NamedItem): string => ((item.prefix ?? defaultPrefix) ? `${sanitize(item.server)}${SEPARATOR}${sanitize(item.name)}` : sanitize(item.name));
  for (const item of items) {
    const prefix = item.prefix ?? defaultPrefix;
    const raw = prefix ? `${item.server}${SEPARATOR}${item.name}` : item.name;
    const safe = safeOf(item);
    const key = itemKey(item.server, item.name);
    const name = safe === raw && raw.length <= MAX_NAME_LENGTH ? raw : suffixed(safe, item, SUFFIX_LENGTH);
    if (name === raw) plain.add(key);
    names.set(key, name);
    const list = byName.get(name);
    if (list) list.push(item);
    else byName.set(name, [item]);
  }
  // Colliding names all take the suffix (not just "the second one"), so no name depends on order.
  for (const [name, group] of byName) {
    if (group.length < 2) continue;
    for (const item of group) {
      const key = itemKey(item.server, item.name);
      const safe = safeOf(item);
      names.set(key, plain.has(key) ? suffixed(safe, item, SUFFIX_LENGTH) : suffixed(safe, item, 12));
    }
    byName.delete(name);
  }
  return dedupeLast(items, names);
}

/** Hash collisions of the suffixes themselves (about 2^-30 a pair): numbered in a fixed order. */
function dedupeLast(items: readonly NamedItem[], names: Map<string, string>): Map<string, string> {
  const seen = new Map<string, number>();
  for (const name of names.values()) seen.set(name, (seen.get(name) ?? 0) + 1);
  if ([...seen.values()].every((n) => n === 1)) return names;
  const sorted = [...items].sort((a, b) => (itemKey(a.server, a.name) < itemKey(b.server, b.name) ? -1 : 1));
  const taken = new Set<string>();
  for (const item of sorted) {
    const key = itemKey(item.server, item.name);
    let name = names.get(key)!;
    for (let n = 2; taken.has(name); n++) name = `${name.slice(0, MAX_NAME_LENGTH - String(n).length - 1)}-${n}`;
    taken.add(name);
    names.set(key, name);
  }
  return names;
}
