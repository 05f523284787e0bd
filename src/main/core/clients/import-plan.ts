/**
 * Reading a client's own servers into Patchbay's config: each entry becomes a server (stdio or
 * remote), inline credentials become `${secret:NAME}` references, and entries Patchbay cannot
 * run (Zed extensions, Goose built-ins) or already has are reported instead of imported.
 */
import { SERVER_ID_PATTERN, type ServerConfig } from '../../../shared/config-schema.js';
import { validateConfigValue } from '../config/config-parse.js';
import { renameSecretRef, storeSecretValue, toServerId, uniqueId } from '../config/config-names.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { ClientEntry } from './client-file.js';
import { sameData } from './formats/format.js';
import type { NeutralEntry } from './neutral-entry.js';
import { recognise, type HubTarget } from './patchbay-entry.js';
import { extractSecrets, type ExtractedSecret } from './secret-extract.js';

// Shared with catalog installs (config/config-names.ts); re-exported for this folder's users.
export { toServerId };

export type ImportStatus = 'new' | 'same' | 'conflict' | 'unsupported' | 'patchbay' | 'invalid';

export interface ImportCandidate {
  entryName: string;
  serverId: string;
  status: ImportStatus;
  config?: ServerConfig;
  secrets: ExtractedSecret[];
  reason?: string;
}

export function toServerConfig(entry: NeutralEntry): ServerConfig {
  if (entry.kind === 'stdio') {
    const out: Record<string, unknown> = { command: entry.command };
    if (entry.args.length > 0) out.args = entry.args;
    if (Object.keys(entry.env).length > 0) out.env = entry.env;
    if (entry.cwd) out.cwd = entry.cwd;
    return out as ServerConfig;
  }
  const out: Record<string, unknown> = entry.transport === 'auto' ? {} : { type: entry.transport };
  out.url = entry.url;
  if (Object.keys(entry.headers).length > 0) out.headers = entry.headers;
  return out as ServerConfig;
}

export function planClientImport(entries: readonly ClientEntry[], existing: Readonly<Record<string, ServerConfig>>, hub: HubTarget): ImportCandidate[] {
  const taken = new Set<string>();
  return entries.map(({ name, entry }) => {
    const serverId = uniqueId(toServerId(name), taken);
    taken.add(serverId);
    if (entry.kind === 'unsupported') return { entryName: name, serverId, status: 'unsupported', secrets: [], reason: entry.reason };
    if (recognise(entry, hub)) return { entryName: name, serverId, status: 'patchbay', secrets: [], reason: 'already Patchbay’s own entry' };
    const { entry: clean, secrets } = extractSecrets(serverId, entry);
    const config = toServerConfig(clean);
    const checked = validateConfigValue({ mcpServers: { [serverId]: config } }, 'import');
    if (!checked.ok || !SERVER_ID_PATTERN.test(serverId)) {
      const why = checked.ok ? 'its name cannot be a server id' : checked.problems.map((p) => `${p.path}: ${p.message}`).join('; ');
      return { entryName: name, serverId, status: 'invalid', secrets: [], reason: why };
    }
    const current = existing[serverId];
    if (current === undefined) return { entryName: name, serverId, status: 'new', config, secrets };
    if (sameData(current, config)) return { entryName: name, serverId, status: 'same', config, secrets, reason: 'Patchbay already has this server' };
    return { entryName: name, serverId, status: 'conflict', secrets: [], reason: `Patchbay already has a different server named '${serverId}'; rename one of them first` };
  });
}

/**
 * Stores the candidates' secrets, picking another name when one is taken by a different value,
 * and returns their configs with the references renamed to match. Values never leave the store
 * through here, and no value appears in a message.
 */
export async function storeSecrets(candidates: readonly ImportCandidate[], store: SecretStore): Promise<{ configs: Map<string, ServerConfig>; stored: string[] }> {
  const configs = new Map<string, ServerConfig>();
  const stored: string[] = [];
  for (const candidate of candidates) {
    if (!candidate.config) continue;
    let text = JSON.stringify(candidate.config);
    for (const secret of candidate.secrets) {
      const { name, stored: wrote } = await storeSecretValue(store, secret.name, secret.value);
      if (wrote) stored.push(name);
      if (name !== secret.name) text = renameSecretRef(text, secret.name, name);
    }
    configs.set(candidate.serverId, JSON.parse(text) as ServerConfig);
  }
  return { configs, stored };
}
