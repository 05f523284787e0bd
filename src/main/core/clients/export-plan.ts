/**
 * What an export would do to a client's file: which of Patchbay's entries are added, updated,
 * left alone or removed, which same-named entries of the client's own are in the way, and the
 * file's new text. Nothing is written here; export-write does that after the preview.
 */
import { ALL_SERVERS, DEFAULT_PROFILE, type ProfileConfig, type ServerConfig } from '../../../shared/config-schema.js';
import { resolveDataDir } from '../home/paths.js';
import type { ClientDef, EntryKind } from './client-defs.js';
import { clientEntries, readClientFile, type ClientFile } from './client-file.js';
import type { ClientHost } from './client-host.js';
import { ClientsError } from './clients-error.js';
import { writeEntry } from './entry-shapes.js';
import { isRecord } from './neutral-entry.js';
import { editClientText, EditError, sameData, type ContainerEdit } from './formats/format.js';
import { hubEntry, recognise, relayEntry, type HubTarget, type RelayLauncher } from './patchbay-entry.js';

export interface ExportContext {
  host: ClientHost;
  dataDir: string;
  servers: Readonly<Record<string, ServerConfig>>;
  /** The config's profiles (the built-in `default` need not be there). */
  profiles?: Readonly<Record<string, ProfileConfig>>;
  launcher: RelayLauncher;
  hub: HubTarget;
  /** The token URL entries carry: the client token for this client's file (default: the hub token). */
  entryToken?: string;
}

export interface ExportRequest {
  /** Server ids; without them every enabled server is exported and stale Patchbay entries are removed. */
  servers?: readonly string[];
  /** Force one entry kind (the client must take it); default: the client's preferred kind. */
  kind?: EntryKind;
  /** Take over same-named entries that are the client's own (a backup is kept). */
  replace?: boolean;
  /** Entry names to use for new entries, by server id (import keeps the client's names). */
  names?: Readonly<Record<string, string>>;
  /** With `servers`: also remove Patchbay's entries for servers not listed (doctor's re-export). */
  prune?: boolean;
  /**
   * Profile names instead of servers: one entry per profile (`relay @name`, `/mcp/@name`), and
   * Patchbay's per-server entries of their members are removed (the profile carries their tools).
   */
  profiles?: readonly string[];
}

export type ExportAction = 'add' | 'update' | 'unchanged' | 'remove' | 'conflict';

export interface ExportChange {
  server: string;
  entryName: string;
  action: ExportAction;
  kind?: EntryKind;
  message?: string;
}

export interface ExportPlan {
  def: ClientDef;
  file: ClientFile;
  changes: ExportChange[];
  edits: ContainerEdit[];
  /** The full new file text (BOM included when the file had one). */
  after: string;
  changed: boolean;
}

/** Keys a person tunes on an entry (in the client's UI or by hand) that a re-export keeps. */
const TUNABLE = new Set(['enabled', 'disabled', 'timeout', 'description', 'autoApprove', 'alwaysAllow', 'trust', 'includeTools', 'excludeTools', 'env_keys', 'startup_timeout_sec', 'tool_timeout_sec', 'enabled_tools', 'disabled_tools']);

/**
 * Patchbay's new entry, keeping what the person added to the old one: keys Patchbay never writes
 * (Cline's autoApprove, say) and tunable ones it does write (Goose's enabled, a timeout).
 */
export function mergeOwnEntry(def: ClientDef, existing: unknown, next: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(existing)) return next;
  const owned = ownedKeys(def);
  const merged = { ...next };
  for (const [key, value] of Object.entries(existing)) if (!owned.has(key) || (TUNABLE.has(key) && key in next)) merged[key] = value;
  return merged;
}

const ownedCache = new Map<string, Set<string>>();
function ownedKeys(def: ClientDef): Set<string> {
  let keys = ownedCache.get(def.id);
  if (!keys) {
    const sample = { stdio: relayEntry({ command: 'c', args: [] }, 's', { A: 'b' }), http: hubEntry({ port: 1, token: 't' }, 's') };
    keys = new Set([...Object.keys(writeEntry(def.shape, sample.stdio, 's') ?? {}), ...Object.keys(writeEntry(def.shape, sample.http, 's') ?? {})]);
    ownedCache.set(def.id, keys);
  }
  return keys;
}

/** `PATCHBAY_HOME` for the relay when the data dir is not the one it would find by default. */
export function relayEnv(ctx: Pick<ExportContext, 'host' | 'dataDir'>): Record<string, string> {
  const fallback = resolveDataDir({ env: { ...ctx.host.env, PATCHBAY_HOME: undefined }, platform: ctx.host.platform, homedir: ctx.host.home });
  return fallback === ctx.dataDir ? {} : { PATCHBAY_HOME: ctx.dataDir };
}

/** The forced kind, else the kind Patchbay's entry already has, else the client's preferred one. */
function chooseKind(def: ClientDef, forced: EntryKind | undefined, current: EntryKind | undefined): EntryKind {
  if (forced === undefined) return current && def.kinds.includes(current) ? current : def.kinds[0]!;
  if (!def.kinds.includes(forced)) {
    throw new ClientsError('kind_unsupported', `${def.name} does not take ${forced === 'http' ? 'URL' : 'stdio'} entries; it takes ${def.kinds.join(' and ')} entries`);
  }
  return forced;
}

/** A profile's members as written in the config (`"*"`: every enabled server). */
function profileMembers(ctx: ExportContext, name: string): string[] {
  const servers = ctx.profiles?.[name]?.servers ?? [ALL_SERVERS];
  const ids = Array.isArray(servers) ? servers : Object.keys(servers);
  return ids.flatMap((id) => (id === ALL_SERVERS ? Object.keys(ctx.servers).filter((s) => ctx.servers[s]?.disabled !== true) : [id]));
}

function profileExists(ctx: ExportContext, name: string): boolean {
  return name === DEFAULT_PROFILE || ctx.profiles?.[name] !== undefined;
}

function selectServers(ctx: ExportContext, request: ExportRequest): string[] {
  if (request.profiles) {
    for (const name of request.profiles) {
      if (!profileExists(ctx, name)) throw new ClientsError('unknown_profile', `there is no profile '${name}' in Patchbay's config (profiles: ${[DEFAULT_PROFILE, ...Object.keys(ctx.profiles ?? {}).filter((p) => p !== DEFAULT_PROFILE)].join(', ')})`);
    }
    return [...new Set(request.profiles)].map((name) => `@${name}`);
  }
  if (!request.servers) return Object.keys(ctx.servers).filter((id) => ctx.servers[id]?.disabled !== true);
  const known = Object.keys(ctx.servers);
  for (const id of request.servers) {
    const server = ctx.servers[id];
    if (!server) throw new ClientsError('unknown_server', `there is no server '${id}' in Patchbay's config (servers: ${known.length ? known.join(', ') : 'none yet'})`);
    if (server.disabled) throw new ClientsError('server_disabled', `server '${id}' is disabled in Patchbay; enable it before exporting it`);
  }
  return [...new Set(request.servers)];
}

export async function planExport(ctx: ExportContext, def: ClientDef, file: string, request: ExportRequest = {}): Promise<ExportPlan> {
  const read = await readClientFile(def, file, ctx.host);
  const entries = clientEntries(read);
  if (request.kind) chooseKind(def, request.kind, undefined);
  const ids = selectServers(ctx, request);

  // Patchbay's entries already in the file, by the server they point at.
  const own = new Map<string, string[]>();
  const ownKind = new Map<string, EntryKind>();
  const byName = new Map(entries.map((e) => [e.name, e]));
  for (const e of entries) {
    if (e.entry.kind === 'unsupported') continue;
    const mine = recognise(e.entry, ctx.hub);
    if (!mine) continue;
    own.set(mine.serverId, [...(own.get(mine.serverId) ?? []), e.name]);
    if (!ownKind.has(mine.serverId)) ownKind.set(mine.serverId, mine.kind);
  }

  const changes: ExportChange[] = [];
  const edits: ContainerEdit[] = [];
  const env = relayEnv(ctx);
  for (const id of ids) {
    const kind = chooseKind(def, request.kind, ownKind.get(id));
    const desired = kind === 'stdio' ? relayEntry(ctx.launcher, id, env) : hubEntry({ port: ctx.hub.port, token: ctx.entryToken ?? ctx.hub.token }, id);
    const existingNames = own.get(id) ?? [];
    const fresh = id.startsWith('@') ? `patchbay-${id.slice(1)}` : id;
    const entryName = existingNames[0] ?? request.names?.[id] ?? def.entryName?.(fresh) ?? fresh;
    const written = writeEntry(def.shape, desired, entryName);
    if (!written) throw new ClientsError('kind_unsupported', `${def.name} cannot take a ${kind} entry`);
    const existing = byName.get(entryName);
    const value = existingNames.length > 0 ? mergeOwnEntry(def, existing?.raw, written) : written;
    // Copies of the same server's entry under other names would show up twice in the client.
    for (const extra of existingNames.slice(1)) {
      changes.push({ server: id, entryName: extra, action: 'remove', message: 'a second Patchbay entry for the same server' });
      edits.push({ name: extra, value: undefined });
    }
    if (existingNames.length > 0) {
      const same = existing !== undefined && sameData(existing.raw, value);
      changes.push({ server: id, entryName, action: same ? 'unchanged' : 'update', kind });
      if (!same) edits.push({ name: entryName, value });
    } else if (existing && !request.replace) {
      changes.push({
        server: id,
        entryName,
        action: 'conflict',
        kind,
        message: `${def.name} already has its own '${entryName}' entry; export with replace (--replace) to point it at Patchbay (a backup is kept)`,
      });
    } else {
      changes.push({ server: id, entryName, action: existing ? 'update' : 'add', kind, ...(existing ? { message: `replaces ${def.name}'s own '${entryName}' entry` } : {}) });
      edits.push({ name: entryName, value });
    }
  }
  if (request.profiles) {
    // The profile's entry carries its members' tools: their own entries would list them twice.
    for (const name of request.profiles) {
      for (const serverId of profileMembers(ctx, name)) {
        for (const entryName of own.get(serverId) ?? []) {
          changes.push({ server: serverId, entryName, action: 'remove', message: `covered by profile '${name}'` });
          edits.push({ name: entryName, value: undefined });
        }
        own.delete(serverId);
      }
    }
  } else if (!request.servers || request.prune) {
    const exported = new Set(ids);
    for (const [serverId, names] of own) {
      if (exported.has(serverId)) continue;
      // Profile entries are exported on their own (--profile); only a removed profile's go.
      if (serverId.startsWith('@') && profileExists(ctx, serverId.slice(1))) continue;
      const why = serverId.startsWith('@') ? `profile '${serverId.slice(1)}' is no longer in Patchbay` : ctx.servers[serverId] ? `server '${serverId}' is disabled in Patchbay` : `server '${serverId}' is no longer in Patchbay`;
      for (const name of names) {
        changes.push({ server: serverId, entryName: name, action: 'remove', message: why });
        edits.push({ name, value: undefined });
      }
    }
  }

  let text = read.text;
  try {
    text = editClientText(def.format, read.text, def, edits);
  } catch (err) {
    if (err instanceof EditError) throw new ClientsError('client_config_uneditable', `${file}: ${err.message}`);
    throw err;
  }
  const after = (read.bom ? '\uFEFF' : '') + text;
  const changed = edits.length > 0 && (read.bytes === undefined || !read.bytes.equals(Buffer.from(after, 'utf8')));
  return { def, file: read, changes, edits, after, changed };
}
