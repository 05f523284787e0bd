/**
 * Everything Patchbay does with MCP clients' config files, behind one object that the API
 * handlers and the CLI share: list the clients, preview and write an export, list backups and
 * roll back, import a client's servers. Writes are serialised, atomic and backed up first.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ConfigStore } from '../config/config-store.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { ClientTokenStore } from '../home/client-tokens.js';
import { createLogger } from '../log/logger.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { createBackup, listBackups, readBackup, sha256, type BackupReason, type BackupRecord } from './backups.js';
import { CLIENTS, clientDef, isClientId, type ClientDef, type ClientId } from './client-defs.js';
import { clientEntries, invalidReason, isInstalled, locateConfig, readClientFile } from './client-file.js';
import { onDisk, type ClientHost } from './client-host.js';
import { ClientsError } from './clients-error.js';
import { unifiedDiff } from './diff-view.js';
import { planExport, type ExportChange, type ExportContext, type ExportPlan, type ExportRequest } from './export-plan.js';
import { needsToken, ownTokens, reusableToken, TOKEN_PLACEHOLDER } from './export-tokens.js';
import { planClientImport, storeSecrets, type ImportCandidate } from './import-plan.js';
import { recognise, type HubTarget, type RelayLauncher } from './patchbay-entry.js';

const log = createLogger('clients');

export interface ClientsServiceDeps {
  dataDir: string;
  config: ConfigStore;
  secrets: SecretStore;
  host: ClientHost;
  launcher: RelayLauncher;
  /** Where URL entries point now: the running hub's port and the hub token. */
  hub(): Promise<HubTarget>;
  /** The per-client token store; without it URL entries carry the hub token (as before issue 17). */
  tokens?(): Promise<ClientTokenStore>;
  now?: () => Date;
}

export interface ClientEntrySummary {
  name: string;
  kind: 'stdio' | 'http' | 'unsupported';
  /** Patchbay's own entry, and the server it points at. */
  patchbay: boolean;
  server?: string;
}

export interface ClientState {
  id: ClientId;
  name: string;
  format: ClientDef['format'];
  kinds: Array<'stdio' | 'http'>;
  installed: boolean;
  configPath: string;
  configExists: boolean;
  status: 'ok' | 'missing' | 'invalid' | 'unreadable' | 'unsupported';
  problem?: string;
  entries: ClientEntrySummary[];
  restartHint: string;
}

export interface ExportPreview {
  clientId: ClientId;
  file: string;
  exists: boolean;
  changes: ExportChange[];
  changed: boolean;
  /** Unified diff with the hub token, client tokens and credential-looking values masked. */
  diff: string;
  /** Hash of the file as previewed; pass it to export so a file changed since is not overwritten. */
  baseHash: string;
  restartHint: string;
}

export interface ExportOutcome extends ExportPreview {
  written: boolean;
  backupId?: string;
}

export interface ImportRequest {
  /** The client's entry names to import; default all. */
  servers?: readonly string[];
  /** Also point the client's entries at Patchbay (through the hub). */
  replace?: boolean;
  dryRun?: boolean;
}

export interface ImportOutcome {
  clientId: ClientId;
  file: string;
  dryRun: boolean;
  imported: Array<{ entryName: string; serverId: string; secrets: string[] }>;
  skipped: Array<{ entryName: string; serverId: string; status: ImportCandidate['status']; reason: string }>;
  /** Names of the secrets stored (never values). */
  secretsStored: string[];
  replaced?: ExportOutcome;
}

export class ClientsService {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly deps: ClientsServiceDeps) {}

  def(id: string): ClientDef {
    if (!isClientId(id)) throw new ClientsError('unknown_client', `unknown client '${id}'; use one of: ${CLIENTS.map((c) => c.id).join(', ')}`);
    return clientDef(id);
  }

  configPath(id: string, override?: string): Promise<string> {
    return override ? Promise.resolve(override) : locateConfig(this.def(id), this.deps.host);
  }

  async list(): Promise<ClientState[]> {
    const hub = await this.deps.hub();
    return Promise.all(CLIENTS.map((def) => this.state(def, hub)));
  }

  async state(def: ClientDef, hub: HubTarget, override?: string): Promise<ClientState> {
    const configPath = await this.configPath(def.id, override);
    const base = {
      id: def.id,
      name: def.name,
      format: def.format,
      kinds: [...def.kinds],
      installed: await isInstalled(def, this.deps.host, configPath),
      configPath,
      restartHint: def.restartHint,
    };
    try {
      const file = await readClientFile(def, configPath, this.deps.host);
      const invalid = invalidReason(file);
      if (invalid) return { ...base, configExists: file.exists, status: 'invalid', problem: invalid, entries: [] };
      const entries = clientEntries(file).map(({ name, entry }): ClientEntrySummary => {
        if (entry.kind === 'unsupported') return { name, kind: 'unsupported', patchbay: false };
        const mine = recognise(entry, hub);
        return { name, kind: entry.kind, patchbay: mine !== undefined, ...(mine ? { server: mine.serverId } : {}) };
      });
      return { ...base, configExists: file.exists, status: file.exists ? 'ok' : 'missing', entries };
    } catch (err) {
      if (!(err instanceof ClientsError)) throw err;
      const status = err.code === 'client_config_unsupported' ? 'unsupported' : 'unreadable';
      return { ...base, configExists: true, status, problem: err.message, entries: [] };
    }
  }

  private async context(): Promise<ExportContext> {
    const config = this.deps.config.get();
    return { host: this.deps.host, dataDir: this.deps.dataDir, servers: config.mcpServers, ...(config.profiles ? { profiles: config.profiles } : {}), launcher: this.deps.launcher, hub: await this.deps.hub() };
  }

  /**
   * The context of an export to this file, with the token its URL entries carry: the client token
   * already in the file while it is valid, else a placeholder that only the write replaces by a
   * freshly minted token (`reused` false).
   */
  private async exportContext(def: ClientDef, file: string): Promise<{ ctx: ExportContext; reused: boolean }> {
    const ctx = await this.context();
    const tokens = await this.deps.tokens?.();
    if (!tokens) return { ctx, reused: true };
    const existing = await reusableToken(tokens, def, file, this.deps.host, ctx.hub);
    return { ctx: { ...ctx, entryToken: existing ?? TOKEN_PLACEHOLDER }, reused: existing !== undefined };
  }

  private async plan(def: ClientDef, file: string, ctx: ExportContext, request: ExportRequest): Promise<{ plan: ExportPlan; preview: ExportPreview }> {
    const plan = await planExport(ctx, def, file, request);
    const before = plan.file.bytes?.toString('utf8');
    const preview: ExportPreview = {
      clientId: def.id,
      file: plan.file.path,
      exists: plan.file.exists,
      changes: plan.changes,
      changed: plan.changed,
      diff: plan.changed ? unifiedDiff(plan.file.path, before, plan.after, [ctx.hub.token, ctx.entryToken]) : '',
      baseHash: sha256(plan.file.bytes ?? ''),
      restartHint: def.restartHint,
    };
    return { plan, preview };
  }

  /** What an export would write; never mints a token (a new one shows as a masked placeholder). */
  async previewExport(id: string, request: ExportRequest = {}, override?: string): Promise<ExportPreview> {
    const def = this.def(id);
    const file = await this.configPath(id, override);
    const { ctx } = await this.exportContext(def, file);
    return (await this.plan(def, file, ctx, request)).preview;
  }

  /** Writes the export (atomically, after a backup). With `baseHash`, refuses if the file changed since the preview. */
  export(id: string, request: ExportRequest & { baseHash?: string } = {}, override?: string, reason: BackupReason = 'export'): Promise<ExportOutcome> {
    return this.serialize(async () => {
      const def = this.def(id);
      const file = await this.configPath(id, override);
      const { ctx, reused } = await this.exportContext(def, file);
      let { plan, preview } = await this.plan(def, file, ctx, request);
      const changedSince = (): ClientsError => new ClientsError('client_config_changed', `${preview.file} changed since the preview; preview the export again`);
      if (request.baseHash !== undefined && request.baseHash !== preview.baseHash) throw changedSince();
      if (!plan.changed) return { ...preview, written: false };
      const tokens = await this.deps.tokens?.();
      // Minted only now, when the file is about to be written: its value goes there and nowhere else.
      let minted: { id: string } | undefined;
      if (tokens && !reused && needsToken(plan)) {
        const fresh = await tokens.mint({ client: def.id, label: def.name, file: plan.file.path });
        minted = fresh.info;
        const again = await this.plan(def, file, { ...ctx, entryToken: fresh.token }, request);
        if (again.preview.baseHash !== preview.baseHash) {
          await tokens.remove(fresh.info.id);
          throw changedSince();
        }
        ({ plan, preview } = again);
      }
      let backup: BackupRecord;
      try {
        backup = await this.write(plan.def.id, plan.file.path, plan.file.bytes, plan.after, reason);
      } catch (err) {
        if (minted) await tokens!.remove(minted.id).catch(() => undefined);
        throw err;
      }
      // Tokens of this file that it no longer holds (the one just replaced, older ones) stop working.
      if (tokens) await tokens.retire(def.id, plan.file.path, await ownTokens(def, plan.file.path, this.deps.host, ctx.hub));
      log.debug(`wrote ${plan.def.name} config`, { file: plan.file.path, backup: backup.id });
      return { ...preview, written: true, backupId: backup.id };
    });
  }

  backups(id: string): Promise<BackupRecord[]> {
    return listBackups(this.deps.dataDir, this.def(id).id);
  }

  /** Restores a backup (default: the latest) byte for byte; the current file is backed up first. */
  rollback(id: string, backupId?: string): Promise<{ file: string; restored: string; deleted: boolean; backupId: string }> {
    return this.serialize(async () => {
      const def = this.def(id);
      const { record, bytes } = await readBackup(this.deps.dataDir, def.id, backupId);
      const current = await readClientFile(def, record.file, this.deps.host).catch(() => undefined);
      const safety = await createBackup(this.deps.dataDir, def.id, record.file, current?.bytes, 'rollback', this.now());
      if (bytes) await this.writeBytes(record.file, bytes, current?.bytes !== undefined);
      else await rm(onDisk(this.deps.host, record.file), { force: true });
      log.debug(`rolled back ${def.name} config`, { file: record.file, to: record.id });
      return { file: record.file, restored: record.id, deleted: bytes === undefined, backupId: safety.id };
    });
  }

  async import(id: string, request: ImportRequest = {}, override?: string): Promise<ImportOutcome> {
    const def = this.def(id);
    const file = await readClientFile(def, await this.configPath(id, override), this.deps.host);
    const entries = clientEntries(file);
    if (request.servers) {
      const names = new Set(entries.map((e) => e.name));
      const missing = request.servers.filter((s) => !names.has(s));
      if (missing.length > 0) throw new ClientsError('unknown_server', `${def.name} has no entry named ${missing.map((m) => `'${m}'`).join(', ')} (entries: ${[...names].join(', ') || 'none'})`);
    }
    const wanted = request.servers ? entries.filter((e) => request.servers!.includes(e.name)) : entries;
    const candidates = planClientImport(wanted, this.deps.config.get().mcpServers, await this.deps.hub());
    const toAdd = candidates.filter((c) => c.status === 'new');
    const outcome: ImportOutcome = {
      clientId: def.id,
      file: file.path,
      dryRun: request.dryRun === true,
      imported: toAdd.map((c) => ({ entryName: c.entryName, serverId: c.serverId, secrets: c.secrets.map((s) => s.name) })),
      skipped: candidates.filter((c) => c.status !== 'new').map((c) => ({ entryName: c.entryName, serverId: c.serverId, status: c.status, reason: c.reason ?? '' })),
      secretsStored: [],
    };
    if (request.dryRun) return outcome;
    // Secrets first: the config must never reference a secret that is not stored.
    const { configs, stored } = await storeSecrets(toAdd, this.deps.secrets);
    outcome.secretsStored = stored;
    if (configs.size > 0) {
      await this.deps.config.update((draft) => {
        for (const [serverId, config] of configs) draft.mcpServers[serverId] = config;
      });
    }
    if (request.replace) {
      const routed = candidates.filter((c) => c.status === 'new' || c.status === 'same');
      if (routed.length > 0) {
        const names = Object.fromEntries(routed.map((c) => [c.serverId, c.entryName]));
        // Each client entry is swapped for Patchbay's under the same name, so nothing the person knows by name moves.
        outcome.replaced = await this.export(id, { servers: routed.map((c) => c.serverId), replace: true, names }, override, 'import');
      }
    }
    return outcome;
  }

  /** Writes a client file after backing up its current bytes; a new file is created 0600. */
  async write(clientId: ClientId, file: string, before: Buffer | undefined, after: string | Buffer, reason: BackupReason): Promise<BackupRecord> {
    const backup = await createBackup(this.deps.dataDir, clientId, file, before, reason, this.now());
    await this.writeBytes(file, after, before !== undefined);
    return backup;
  }

  serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async writeBytes(file: string, data: string | Buffer, existed: boolean): Promise<void> {
    const target = onDisk(this.deps.host, file);
    await mkdir(path.dirname(target), { recursive: true });
    // A new file holds a client token: readable by its owner only. An existing one keeps its mode.
    await writeFileAtomic(target, data, existed ? {} : { mode: 0o600 });
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}
