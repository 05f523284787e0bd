/**
 * The catalog's API handlers (src/shared/api/catalog-contract.ts): search and detail over the
 * registry copies (a `CatalogSource`), and installs and updates that write config.json and the
 * secret store all or nothing (docs/catalog.md).
 *
 * An install checks everything first (the id is free, required values are there, the runtime is
 * on PATH, the profile exists), marks the server's tools pending (on disk, or nothing is
 * installed), writes its secrets (never over another's: a name holding a different value gives
 * `.2`, as an import does), then the entry (and profile membership) in one config update.
 * Anything failing after the mark puts the mark, the pins and the store back as they were. A form
 * cancelled writes nothing: nothing is written before `catalog.install`.
 */
import { isDeepStrictEqual } from 'node:util';
import type { catalogContract } from '../../../shared/api/catalog-contract.js';
import { type CatalogDetail, type CatalogOption, type CatalogPlan, type CatalogSelect } from '../../../shared/api/catalog-contract.js';
import { secretsContract } from '../../../shared/api/secrets-contract.js';
import { DEFAULT_PROFILE, serverConfigSchema, type ServerConfig } from '../../../shared/config-schema.js';
import { ApiError, withApiErrors, type ApiRegistry, type Handlers } from '../api/api-registry.js';
import { renameSecretRef, storeSecretValue } from '../config/config-names.js';
import { ConfigError, type ConfigStore } from '../config/config-store.js';
import type { ToolPins } from '../profiles/tool-pins.js';
import { addServer } from '../profiles/profile-edits.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { CatalogSource, RegistryEntry } from './catalog-source.js';
import { RegistryError } from './registry-client.js';
import { catalogResult } from './catalog-result.js';
import { entryDiff, entryValues, outdatedServers } from './catalog-update.js';
import { documentOptions, optionOf } from './install-inputs.js';
import { buildPlan, defaultOption, deriveServerId, PlanError, type BuiltPlan } from './install-plan.js';
import { checkRuntime, type RuntimeEnv } from './runtime-check.js';

/** The keys a plan writes; an update replaces them and keeps the rest of the entry. */
const PLANNED_KEYS = ['command', 'args', 'env', 'url', 'headers', 'type', 'transport', 'catalog'];

/** A config update, its refusals worded as API errors (the file's problems with their JSON paths). */
function updateConfig(config: ConfigStore, mutate: Parameters<ConfigStore['update']>[0]): ReturnType<ConfigStore['update']> {
  return withApiErrors(ConfigError, () => config.update(mutate));
}

export interface CatalogApiDeps {
  source: CatalogSource;
  config: ConfigStore;
  secrets: SecretStore;
  pins: Pick<ToolPins, 'markPending'>;
  runtime: RuntimeEnv;
  /** Whether this machine can sandbox stdio servers (sandbox/sandbox-support.ts): installs are sandboxed by default where it can. */
  sandbox: () => Promise<{ available: boolean; detail: string }>;
  api: ApiRegistry;
}

/** The catalog's refresh is at most hourly (the source decides); the first use waits for it, later ones search the copy at hand. */
async function freshen(source: CatalogSource): Promise<void> {
  const never = source.registries().every((r) => r.fetchedAt === undefined && r.error === undefined);
  if (never) await source.refresh();
  else void source.refresh();
}

async function entryOf(source: CatalogSource, name: string, registry?: string, version?: string): Promise<RegistryEntry> {
  let latest = source.latest(name, registry);
  if (!latest) {
    await freshen(source);
    latest = source.latest(name, registry);
  }
  if (!latest) throw new ApiError('catalog_not_found', `No registry${registry ? ` (${registry})` : ''} has a server named '${name}'.`);
  if (version === undefined || version === latest.document.version) return latest;
  try {
    return await source.version(name, version, latest.registry);
  } catch (err) {
    throw new ApiError('catalog_version_not_found', (err as Error).message);
  }
}

/** The registry's list of versions, its failures worded: a 404 means the registry no longer has a server the copy still lists. */
async function versionsOf(source: CatalogSource, entry: RegistryEntry): Promise<Awaited<ReturnType<CatalogSource['versions']>>> {
  try {
    return await source.versions(entry.document.name, entry.registry);
  } catch (err) {
    if (err instanceof RegistryError && err.status === 404) {
      throw new ApiError('catalog_not_found', `${err.message} (the catalog's copy still lists it: it was removed since; refresh the catalog)`);
    }
    throw new ApiError('registry_failed', (err as Error).message);
  }
}

function planError(err: unknown): never {
  if (err instanceof PlanError) throw new ApiError(err.code, err.message);
  throw err;
}

export function catalogHandlers(deps: CatalogApiDeps): Handlers<typeof catalogContract> {
  const { source, config, secrets, pins, runtime, api } = deps;
  const installedIds = (name: string): string[] =>
    Object.entries(config.get().mcpServers)
      .filter(([, s]) => s.catalog?.name === name)
      .map(([id]) => id);

  async function optionsOf(entry: RegistryEntry): Promise<CatalogOption[]> {
    const options = documentOptions(entry.document);
    for (const option of options) {
      const { pkg } = optionOf(entry.document, option.id);
      if (!pkg || option.unsupported) continue;
      const check = await checkRuntime(pkg, runtime);
      option.runtime = { command: check.command, available: check.available, ...(check.missing ? { hint: check.missing } : check.hint ? { hint: check.hint } : {}) };
    }
    return options;
  }

  type Planned = BuiltPlan & { runtimeMissing?: string; sandbox?: { on: boolean; available: boolean; detail: string } };

  async function plan(select: CatalogSelect): Promise<Planned> {
    const entry = await entryOf(source, select.name, select.registry, select.version);
    const option = select.option ?? defaultOption(entry.document);
    const taken = new Set(Object.keys(config.get().mcpServers));
    const serverId = select.serverId ?? deriveServerId(entry.document.name, taken);
    const { pkg } = optionOf(entry.document, option);
    const check = pkg ? await checkRuntime(pkg, runtime) : undefined;
    let built: BuiltPlan;
    try {
      built = buildPlan({ document: entry.document, registry: entry.registry, serverId, ...(option ? { option } : {}), ...(select.values ? { values: select.values } : {}), ...(check ? { runtime: check.command } : {}) });
    } catch (err) {
      planError(err);
    }
    const planned: Planned = check?.missing ? { ...built, runtimeMissing: check.missing } : built;
    if ('command' in planned.entry) {
      // A package runs sandboxed unless the person says not to, wherever this machine can (issue 25).
      const support = await deps.sandbox();
      const on = select.sandbox ?? support.available;
      planned.sandbox = { on, available: support.available, detail: support.detail };
      if (on) planned.entry = { ...planned.entry, sandbox: true };
    }
    return planned;
  }

  /** What an answer may carry: the plan without the values of its secrets. */
  const shown = (p: Planned): CatalogPlan => ({
    serverId: p.serverId,
    entry: p.entry,
    preview: p.preview,
    secrets: p.secrets,
    missing: p.missing,
    ...(p.runtimeMissing ? { runtimeMissing: p.runtimeMissing } : {}),
    ...(p.sandbox ? { sandbox: p.sandbox } : {}),
  });

  /**
   * Marks the server's tools pending: on disk, or nothing goes ahead. Returns what takes the mark
   * back (and puts back the approvals it dropped) when the config write then fails.
   */
  async function markPending(serverId: string, done: 'installed' | 'updated'): Promise<() => Promise<void>> {
    try {
      return await pins.markPending(serverId);
    } catch (err) {
      throw new ApiError('pins_write_failed', `could not record in tool-pins.json that the tools of '${serverId}' wait for approval, so nothing was ${done}: ${(err as Error).message}`);
    }
  }

  /**
   * Stores the plan's secrets, each under its name or, when that name holds another value (a
   * secret of another entry), the next free one (`.2`…), as an import does; the plan's references
   * follow. Returns the plan as written and what deletes the secrets it stored.
   */
  async function writeSecrets(p: Planned): Promise<{ planned: Planned; stored: string[]; undo: () => Promise<void> }> {
    const stored: string[] = [];
    const undo = async (): Promise<void> => {
      for (const name of [...stored].reverse()) await secrets.delete(name).catch(() => false);
    };
    let entryText = JSON.stringify(p.entry);
    let preview = p.preview;
    const names: CatalogPlan['secrets'] = [];
    try {
      for (const secret of p.secrets) {
        const value = p.secretValues[secret.name]!;
        const { name, stored: wrote } = await storeSecretValue(secrets, secret.name, value);
        if (wrote) stored.push(name);
        entryText = renameSecretRef(entryText, secret.name, name);
        preview = renameSecretRef(preview, secret.name, name);
        names.push({ ...secret, name });
      }
    } catch (err) {
      await undo();
      throw new ApiError('secret_store_failed', `could not store the secrets, so nothing was installed: ${(err as Error).message}`);
    }
    return { planned: { ...p, entry: JSON.parse(entryText) as ServerConfig, preview, secrets: names }, stored, undo };
  }

  return {
    'catalog.registries': () => source.registries(),
    'catalog.refresh': ({ force }) => source.refresh(force ? { force } : {}),
    'catalog.search': async ({ query, limit, registry }) => {
      await freshen(source);
      const { hits, total } = source.search(query, { ...(limit ? { limit } : {}), ...(registry ? { registry } : {}) });
      return { results: hits.map((h) => catalogResult(h, installedIds(h.document.name))), total, registries: source.registries() };
    },
    'catalog.detail': async ({ name, registry, version }): Promise<CatalogDetail> => {
      const entry = await entryOf(source, name, registry, version);
      // Offline the store answers the copy's latest version itself; what reaches here is a real answer or failure.
      const versions = await versionsOf(source, entry);
      return { result: catalogResult(entry, installedIds(name)), document: entry.document, versions, options: await optionsOf(entry) };
    },
    'catalog.plan': async (select) => shown(await plan(select)),
    'catalog.install': async (select) => {
      if (select.serverId !== undefined && config.get().mcpServers[select.serverId] !== undefined) {
        throw new ApiError('server_exists', `There is already a server '${select.serverId}' in the config: choose another id.`);
      }
      const profile = select.profile;
      if (profile !== undefined && profile !== DEFAULT_PROFILE && config.get().profiles?.[profile] === undefined) {
        throw new ApiError('profile_not_found', `There is no profile '${profile}': create it first (patchbay profiles create ${profile}).`);
      }
      const p = await plan(select);
      if (p.missing.length > 0) throw new ApiError('values_missing', `Required values are missing: ${p.missing.join(', ')}`, { missing: p.missing });
      if (p.runtimeMissing) throw new ApiError('runtime_missing', `${p.runtimeMissing}: install it, then try again (nothing was written).`);
      if (p.sandbox?.on && !p.sandbox.available) throw new ApiError('sandbox_unavailable', `This machine cannot run servers in a sandbox (${p.sandbox.detail}): install it with the sandbox off, or make a sandbox available (patchbay doctor says how). Nothing was written.`);
      const checked = serverConfigSchema.safeParse(p.entry);
      if (!checked.success) throw new ApiError('entry_invalid', `the entry would be invalid: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      // Set before the entry exists: the first tools the server lists are held for approval.
      const restorePins = await markPending(p.serverId, 'installed');
      let undoSecrets: () => Promise<void> = async () => undefined;
      let written: Planned = p;
      let stored: string[] = [];
      try {
        ({ planned: written, stored, undo: undoSecrets } = await writeSecrets(p));
        await updateConfig(config, (draft) => {
          if (draft.mcpServers[p.serverId] !== undefined) throw new ApiError('server_exists', `There is already a server '${p.serverId}' in the config: choose another id.`);
          draft.mcpServers[p.serverId] = written.entry;
          if (profile !== undefined) addServer(draft, profile, p.serverId);
        });
      } catch (err) {
        await undoSecrets();
        await restorePins();
        throw err;
      }
      if (stored.length > 0) api.emit(secretsContract, 'secrets.changed', { names: stored });
      return { ...shown(written), ...(profile !== undefined ? { profile } : {}), pendingApproval: true as const };
    },
    'catalog.outdated': () => ({ servers: outdatedServers(config.get().mcpServers, source) }),
    'catalog.update': async ({ serverId, version, apply }) => {
      const current = config.get().mcpServers[serverId];
      if (!current) throw new ApiError('server_not_found', `There is no server '${serverId}' in the config.`);
      const from = current.catalog;
      if (!from) throw new ApiError('not_from_catalog', `'${serverId}' was not installed from a registry: there is nothing to update it from.`);
      const target = await entryOf(source, from.name, from.registry, version);
      const option = from.option ?? defaultOption(target.document);
      const chosen = optionOf(target.document, option);
      if (!chosen.pkg && !chosen.remote) throw new ApiError('option_unknown', `${from.name} ${target.document.version} no longer has '${option ?? '?'}': remove the server and install it again.`);
      const values = entryValues(current, chosen);
      let next: ServerConfig;
      try {
        const check = chosen.pkg ? await checkRuntime(chosen.pkg, runtime) : undefined;
        const built = buildPlan({ document: target.document, registry: from.registry, serverId, values, ...(option ? { option } : {}), ...(check ? { runtime: check.command } : {}) });
        if (built.missing.length > 0) throw new ApiError('values_missing', `${target.document.version} needs values the entry does not have: ${built.missing.join(', ')}; remove the server and install it again.`);
        if (Object.keys(built.secretValues).length > 0) throw new ApiError('values_missing', `${target.document.version} needs new secrets (${built.secrets.map((s) => s.key).join(', ')}); remove the server and install it again.`);
        next = built.entry;
      } catch (err) {
        planError(err);
      }
      // Keeps what the user added to the entry themselves (enabled, sandbox, cwd…), replacing what the plan writes.
      const kept: Record<string, unknown> = { ...current };
      for (const key of PLANNED_KEYS) delete kept[key];
      next = { ...kept, ...next } as ServerConfig;
      const result = { serverId, from: from.version, to: target.document.version, diff: entryDiff(serverId, current, next), entry: next, applied: false };
      if (apply !== true) return result;
      // Nothing to apply: rewriting the same entry would only drop its approved tools (a nightly `update --yes`).
      if (result.from === result.to && isDeepStrictEqual(current, next)) return result;
      const restorePins = await markPending(serverId, 'updated');
      try {
        await updateConfig(config, (draft) => {
          draft.mcpServers[serverId] = next;
        });
      } catch (err) {
        await restorePins();
        throw err;
      }
      return { ...result, applied: true };
    },
  };
}
