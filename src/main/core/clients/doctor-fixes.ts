/**
 * Applying a fix the doctor offered. Only fixes the doctor offers right now are accepted (the
 * report is computed again), so a stale or made-up fix id does nothing. Each fix writes one
 * client file through the same backup-then-atomic-write path as an export.
 */
import path from 'node:path';
import { claudeDesktopPaths, clientDef, isClientId, type ClientDef } from './client-defs.js';
import { clientEntries, readClientFile } from './client-file.js';
import { onDisk } from './client-host.js';
import { ClientsError } from './clients-error.js';
import { resolveCommand } from '../upstream/command-resolve.js';
import { runDoctor, type DoctorDeps } from './doctor.js';
import { liveServerIds, msixMissingEntries } from './doctor-clients.js';
import { editClientText, EditError, type ContainerEdit } from './formats/format.js';
import { isRecord } from './neutral-entry.js';

export interface FixOutcome {
  fixId: string;
  message: string;
  file?: string;
  backupId?: string;
}

export async function applyFix(fixId: string, deps: DoctorDeps): Promise<FixOutcome> {
  const report = await runDoctor(deps);
  if (!report.checks.some((c) => c.fix?.id === fixId)) {
    throw new ClientsError('unknown_fix', `the doctor does not offer the fix '${fixId}' now (it may be fixed already); run the doctor again`);
  }
  const [kind, clientId = '', ...rest] = fixId.split(':');
  if (!isClientId(clientId)) throw new ClientsError('unknown_fix', `unknown client in fix '${fixId}'`);
  const def = clientDef(clientId);
  if (kind === 'reexport') return reexport(def, fixId, deps);
  if (kind === 'abspath') return absolutePath(def, rest.join(':'), fixId, deps);
  if (kind === 'msix-sync') return msixSync(def, fixId, deps);
  throw new ClientsError('unknown_fix', `unknown fix '${fixId}'`);
}

async function reexport(def: ClientDef, fixId: string, deps: DoctorDeps): Promise<FixOutcome> {
  const { service } = deps;
  const file = await readClientFile(def, await service.configPath(def.id), service.deps.host);
  const ids = liveServerIds(clientEntries(file), deps, await service.deps.hub());
  const outcome = await service.export(def.id, { servers: ids, prune: true }, undefined, 'fix');
  return { fixId, message: `rewrote Patchbay's entries in ${outcome.file}. ${def.restartHint}`, file: outcome.file, ...(outcome.backupId ? { backupId: outcome.backupId } : {}) };
}

/** The command's key, its env key, and whether the command is an array (opencode). */
function commandKeys(def: ClientDef): { command: string; env: string; array: boolean } {
  if (def.id === 'goose') return { command: 'cmd', env: 'envs', array: false };
  if (def.id === 'opencode') return { command: 'command', env: 'environment', array: true };
  return { command: 'command', env: 'env', array: false };
}

async function absolutePath(def: ClientDef, entryName: string, fixId: string, deps: DoctorDeps): Promise<FixOutcome> {
  const { service } = deps;
  const { host } = service.deps;
  const delimiter = host.platform === 'win32' ? ';' : ':';
  return service.serialize(async () => {
    const file = await readClientFile(def, await service.configPath(def.id), host);
    const found = clientEntries(file).find((e) => e.name === entryName);
    if (!found || found.entry.kind !== 'stdio' || !isRecord(found.raw)) throw new ClientsError('unknown_fix', `${def.name} has no stdio entry '${entryName}' any more`);
    const resolved = await resolveCommand(found.entry.command, `${await deps.shellPath()}${delimiter}${await deps.hubPath()}`, host.platform, { fsPath: (p) => onDisk(host, p) });
    if (!resolved) throw new ClientsError('unknown_fix', `'${found.entry.command}' is not found on your shell's PATH either; install it first`);
    const keys = commandKeys(def);
    const raw = structuredClone(found.raw);
    if (keys.array && Array.isArray(raw[keys.command])) (raw[keys.command] as unknown[])[0] = resolved;
    else if (def.id === 'zed' && isRecord(raw.command)) raw.command.path = resolved;
    else raw[keys.command] = resolved;
    // npx and friends are `#!/usr/bin/env node` scripts: the interpreter must be on PATH too, and it sits beside them.
    const envHolder = def.id === 'zed' && isRecord(raw.command) ? raw.command : raw;
    const env = isRecord(envHolder[keys.env]) ? (envHolder[keys.env] as Record<string, unknown>) : {};
    if (env.PATH === undefined) {
      env.PATH = `${path.dirname(resolved)}${delimiter}${deps.desktopPath}`;
      envHolder[keys.env] = env;
    }
    const edits: ContainerEdit[] = [{ name: entryName, value: raw }];
    const after = edit(def, file.text, edits, file.path);
    const backup = await service.write(def.id, file.path, file.bytes, (file.bom ? '\uFEFF' : '') + after, 'fix');
    return { fixId, message: `'${entryName}' in ${file.path} now runs ${resolved}. ${def.restartHint}`, file: file.path, backupId: backup.id };
  });
}

async function msixSync(def: ClientDef, fixId: string, deps: DoctorDeps): Promise<FixOutcome> {
  const { service } = deps;
  const { host } = service.deps;
  const paths = claudeDesktopPaths(host);
  if (!paths.msix) throw new ClientsError('unknown_fix', 'Claude Desktop has no Store (MSIX) path on this platform');
  const live = paths.msix;
  return service.serialize(async () => {
    const missing = new Set(await msixMissingEntries(def, paths.classic, live, deps));
    const classic = clientEntries(await readClientFile(def, paths.classic, host));
    const liveFile = await readClientFile(def, live, host);
    clientEntries(liveFile);
    const edits: ContainerEdit[] = classic.filter((e) => missing.has(e.name) && isRecord(e.raw)).map((e) => ({ name: e.name, value: e.raw as Record<string, unknown> }));
    const after = edit(def, liveFile.text, edits, live);
    const backup = await service.write(def.id, live, liveFile.bytes, (liveFile.bom ? '\uFEFF' : '') + after, 'fix');
    return { fixId, message: `copied ${edits.map((e) => `'${e.name}'`).join(', ')} into ${live}. ${def.restartHint}`, file: live, backupId: backup.id };
  });
}

function edit(def: ClientDef, text: string, edits: ContainerEdit[], file: string): string {
  try {
    return editClientText(def.format, text, def, edits);
  } catch (err) {
    if (err instanceof EditError) throw new ClientsError('client_config_uneditable', `${file}: ${err.message}`);
    throw err;
  }
}
