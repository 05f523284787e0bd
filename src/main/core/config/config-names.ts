/**
 * The names Patchbay picks when it writes servers into config.json from elsewhere — a client's
 * config imported (clients/import-plan.ts) or a registry's server installed (catalog/) — so both
 * follow one rule: server ids made from outside names, secret store names for the values taken
 * out of an entry, and a stored secret never overwritten by another's value.
 */
import type { SecretStore } from '../secrets/secret-store.js';

/** A server id for an outside name: id characters only, starting with a letter or digit, at most 64. */
export function toServerId(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64).replace(/[-.]+$/, '');
  return id === '' ? 'server' : id;
}

/** `base`, or `base-2`, `base-3`… when taken. */
export function uniqueId(base: string, taken: ReadonlySet<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base.slice(0, 60)}-${n}`;
  return id;
}

/** The store name for a secret of a server: `<serverId>.<field>` within the store's name rule. */
export function secretName(serverId: string, field: string): string {
  return `${serverId}.${field}`.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 128);
}

/**
 * Stores one value under `wanted`, or under `wanted.2`, `wanted.3`… when the name holds a
 * different value (another entry's secret is never overwritten); a name already holding this very
 * value is used as it is. Says which name holds it and whether it was written now.
 */
export async function storeSecretValue(store: Pick<SecretStore, 'get' | 'set'>, wanted: string, value: string): Promise<{ name: string; stored: boolean }> {
  let name = wanted;
  for (let n = 2; ; n++) {
    const current = await store.get(name);
    if (current === undefined) {
      await store.set(name, value);
      return { name, stored: true };
    }
    if (current === value) return { name, stored: false };
    name = `${wanted.slice(0, 120)}.${n}`;
  }
}

/** `text` with each `${secret:from}` reference made `${secret:to}` (a value stored under another name). */
export function renameSecretRef(text: string, from: string, to: string): string {
  return text.split(`\${secret:${from}}`).join(`\${secret:${to}}`);
}
