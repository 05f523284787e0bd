/**
 * `${secret:NAME}` references in server configs. They are resolved only when a server starts,
 * into a copy of its config: the stored config, exports and logs only ever hold the reference.
 */
import type { PatchbayConfig, ServerConfig } from '../../../shared/config-schema.js';
import { SECRET_NAME_PATTERN, type SecretStore } from '../secrets/secret-store.js';
import { formatJsonPath, isPlainObject } from './config-parse.js';

const SECRET_REF = /\$\{secret:([^}]*)\}/g;

export interface SecretRefOptions {
  /** Named in error messages so a person knows which server could not start. */
  serverId?: string;
  /** Where the value sits (e.g. `env.GITHUB_TOKEN`), for error messages. */
  field?: string;
}

export type SecretResolutionErrorCode = 'secret_missing' | 'secret_ref_invalid';

/** A reference could not be resolved. The message names secrets and fields, never values. */
export class SecretResolutionError extends Error {
  constructor(
    readonly code: SecretResolutionErrorCode,
    message: string,
    /** Missing secret names (code 'secret_missing'). */
    readonly secretNames: readonly string[],
    readonly serverId?: string,
  ) {
    super(message);
    this.name = 'SecretResolutionError';
  }
}

interface Slot {
  /** Path inside the server config, e.g. ['env', 'TOKEN']. */
  path: Array<string | number>;
  value: string;
  set(resolved: string): void;
}

/** Replace every `${secret:NAME}` in `value`. Rejects with SecretResolutionError naming what is missing. */
export async function resolveSecretRefs(
  value: string,
  store: SecretStore,
  options: SecretRefOptions = {},
): Promise<string> {
  const slot: Slot = { path: [], value, set: () => undefined };
  const values = await lookup([slot], store, options.serverId, () => options.field);
  return substitute(value, values);
}

/**
 * A copy of `server` with references resolved in env values, args, headers and url. Every
 * missing secret is reported at once, so a person can fix them all in one go.
 */
export async function resolveServerSecrets<T extends ServerConfig>(
  server: T,
  store: SecretStore,
  options: Pick<SecretRefOptions, 'serverId'> = {},
): Promise<T> {
  const copy = structuredClone(server);
  const slots = serverSlots(copy);
  const values = await lookup(slots, store, options.serverId, (slot) => fieldLabel(slot.path));
  for (const slot of slots) slot.set(substitute(slot.value, values));
  return copy;
}

export interface SecretRefLocation {
  serverId: string;
  /** JSON path of the value holding the reference, e.g. `$.mcpServers.gh.env.TOKEN`. */
  path: string;
  name: string;
  /** False when the name does not match SECRET_NAME_PATTERN (it can never resolve). */
  valid: boolean;
}

/** Every secret reference in a config, for checks that run before any server starts. */
export function findSecretRefs(config: PatchbayConfig): SecretRefLocation[] {
  const found: SecretRefLocation[] = [];
  for (const [serverId, server] of Object.entries(config.mcpServers)) {
    for (const slot of serverSlots(server)) {
      for (const name of refNames(slot.value)) {
        found.push({
          serverId,
          path: formatJsonPath(['mcpServers', serverId, ...slot.path]),
          name,
          valid: SECRET_NAME_PATTERN.test(name),
        });
      }
    }
  }
  return found;
}

function serverSlots(server: ServerConfig): Slot[] {
  const record = server as Record<string, unknown>;
  const slots: Slot[] = [];
  if (typeof record.url === 'string') {
    slots.push({ path: ['url'], value: record.url, set: (v) => (record.url = v) });
  }
  if (Array.isArray(record.args)) {
    const args = record.args as unknown[];
    args.forEach((arg, i) => {
      if (typeof arg === 'string')
        slots.push({ path: ['args', i], value: arg, set: (v) => (args[i] = v) });
    });
  }
  for (const key of ['env', 'headers'] as const) {
    const map = record[key];
    if (!isPlainObject(map)) continue;
    for (const [name, value] of Object.entries(map)) {
      if (typeof value === 'string')
        slots.push({ path: [key, name], value, set: (v) => (map[name] = v) });
    }
  }
  return slots.filter((slot) => slot.value.includes('${secret:'));
}

async function lookup(
  slots: Slot[],
  store: SecretStore,
  serverId: string | undefined,
  label: (slot: Slot) => string | undefined,
): Promise<Map<string, string>> {
  const who = serverId === undefined ? '' : `server '${serverId}': `;
  const wanted = new Map<string, string[]>();
  for (const slot of slots) {
    for (const name of refNames(slot.value)) {
      const where = label(slot);
      if (!SECRET_NAME_PATTERN.test(name)) {
        // The bad name is not echoed: people sometimes paste the value itself in there.
        throw new SecretResolutionError(
          'secret_ref_invalid',
          `${who}invalid secret reference${where ? ` in ${where}` : ''}: write \${secret:NAME} where NAME uses letters, digits, "_", "-" and "."`,
          [],
          serverId,
        );
      }
      const fields = wanted.get(name) ?? [];
      if (where) fields.push(where);
      wanted.set(name, fields);
    }
  }
  const values = new Map<string, string>();
  const missing: string[] = [];
  for (const name of wanted.keys()) {
    const value = await store.get(name);
    if (value === undefined) missing.push(name);
    else values.set(name, value);
  }
  if (missing.length > 0) {
    const described = missing.map((name) => {
      const fields = wanted.get(name) ?? [];
      return fields.length > 0 ? `'${name}' (used in ${fields.join(', ')})` : `'${name}'`;
    });
    const message =
      missing.length === 1
        ? `${who}secret ${described[0]} is not set. Add it with: patchbay secrets set ${missing[0]}`
        : `${who}secrets ${described.join(', ')} are not set. Add each with: patchbay secrets set NAME`;
    throw new SecretResolutionError('secret_missing', message, missing, serverId);
  }
  return values;
}

function refNames(value: string): string[] {
  return [...value.matchAll(SECRET_REF)].map((m) => m[1] ?? '');
}

function substitute(value: string, values: ReadonlyMap<string, string>): string {
  // A replacer function, not a replacement string: a secret containing "$&" must stay literal.
  return value.replace(SECRET_REF, (_match, name: string) => values.get(name) ?? '');
}

function fieldLabel(path: Array<string | number>): string {
  return formatJsonPath(path).replace(/^\$\.?/, '');
}
