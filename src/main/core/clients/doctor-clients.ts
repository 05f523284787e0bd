/**
 * The doctor's checks of each client's file: it parses; Patchbay's entries are current (relay
 * path exists, hub port and token match); the client's own stdio entries resolve on the PATH
 * that client actually gets; Claude Desktop from the Store reads the file Patchbay writes.
 */
import { isClientToken, type ClientTokenStore } from '../home/client-tokens.js';
import { CLIENTS, claudeDesktopPaths, type ClientDef } from './client-defs.js';
import { onDisk } from './client-host.js';
import { clientEntries, exists, invalidReason, isInstalled, readClientFile, type ClientEntry } from './client-file.js';
import { ClientsError } from './clients-error.js';
import { installHint, isBareCommand, resolveCommand } from '../upstream/command-resolve.js';
import type { DoctorCheck, DoctorDeps } from './doctor.js';
import { relayEnv } from './export-plan.js';
import { sameData } from './formats/format.js';
import type { StdioEntry } from './neutral-entry.js';
import { recognise, relayEntry, type HubTarget } from './patchbay-entry.js';

export async function clientChecks(deps: DoctorDeps): Promise<DoctorCheck[]> {
  const hub = await deps.service.deps.hub();
  const tokens = await deps.service.deps.tokens?.();
  await tokens?.refresh();
  const out: DoctorCheck[] = [];
  for (const def of CLIENTS) out.push(...(await checksFor(def, deps, hub, tokens)));
  return out;
}

async function checksFor(def: ClientDef, deps: DoctorDeps, hub: HubTarget, tokens: ClientTokenStore | undefined): Promise<DoctorCheck[]> {
  const { service } = deps;
  const configPath = await service.configPath(def.id);
  const out: DoctorCheck[] = [];
  if (def.id === 'claude-desktop') out.push(...(await msixChecks(deps)));
  let file;
  try {
    file = await readClientFile(def, configPath, service.deps.host);
  } catch (err) {
    if (!(err instanceof ClientsError)) throw err;
    return [...out, { id: `client-config:${def.id}`, area: 'clients', status: 'error', title: `${def.name}: ${err.message}` }];
  }
  if (!file.exists) return out;
  const invalid = invalidReason(file);
  if (invalid) {
    const backups = await service.backups(def.id);
    return [
      ...out,
      {
        id: `client-config:${def.id}`,
        area: 'clients',
        status: 'error',
        title: `${def.name}: the config file does not parse, so ${def.name} cannot read it either`,
        detail: invalid,
        hint: backups.length > 0 ? `Fix the file by hand, or restore Patchbay's last backup: patchbay export ${def.id} --rollback` : 'Fix the file by hand (the position is given above)',
      },
    ];
  }
  if (!(await isInstalled(def, service.deps.host, configPath))) return out;
  const entries = clientEntries(file);
  out.push(...(await ownEntryChecks(def, entries, deps, hub, tokens)));
  out.push(...(await foreignCommandChecks(def, entries, deps, hub)));
  return out;
}

async function ownEntryChecks(def: ClientDef, entries: readonly ClientEntry[], deps: DoctorDeps, hub: HubTarget, tokens: ClientTokenStore | undefined): Promise<DoctorCheck[]> {
  const { service } = deps;
  const servers = service.deps.config.get().mcpServers;
  const problems: string[] = [];
  /** Entries that work but carry the hub token, which cannot be revoked for one client alone. */
  const masterToken: string[] = [];
  let count = 0;
  for (const { name, entry } of entries) {
    if (entry.kind === 'unsupported') continue;
    const mine = recognise(entry, hub);
    if (!mine) continue;
    count++;
    const server = servers[mine.serverId];
    if (!server) problems.push(`'${name}' points at server '${mine.serverId}', which is no longer in Patchbay`);
    else if (server.disabled) problems.push(`'${name}' points at server '${mine.serverId}', which is disabled in Patchbay`);
    if (entry.kind === 'http') {
      const tokenProblem = tokenState(name, mine.token, hub, tokens);
      if (tokenProblem === 'master') masterToken.push(name);
      else if (tokenProblem) problems.push(tokenProblem);
      if (mine.port !== hub.port) problems.push(`'${name}' points at port ${mine.port}, but the hub uses port ${hub.port}`);
    } else {
      problems.push(...(await relayProblems(name, entry, mine.serverId, deps)));
    }
  }
  if (problems.length > 0) {
    return [
      {
        id: `client-entries:${def.id}`,
        area: 'clients',
        status: 'error',
        title: `${def.name}: Patchbay's entries are out of date`,
        detail: problems.join('\n'),
        fix: { id: `reexport:${def.id}`, label: `Rewrite Patchbay's entries in ${def.name}'s config (a backup is kept)` },
      },
    ];
  }
  if (masterToken.length > 0 && tokens) {
    return [
      {
        id: `client-entries:${def.id}`,
        area: 'clients',
        status: 'warn',
        title: `${def.name}: Patchbay's entries carry the hub token, not a client token of their own`,
        detail: `${masterToken.map((n) => `'${n}'`).join(', ')} work, but a leak of this file could only be stopped by rotating the hub token for everyone`,
        fix: { id: `reexport:${def.id}`, label: `Export again: ${def.name} gets its own client token, revocable in Settings (a backup is kept)` },
      },
    ];
  }
  return count > 0 ? [{ id: `client-entries:${def.id}`, area: 'clients', status: 'ok', title: `${def.name}: ${count} Patchbay entr${count === 1 ? 'y' : 'ies'} up to date` }] : [];
}

/**
 * What is wrong with the bearer token of one of Patchbay's URL entries: undefined when the hub
 * takes it (a client token it knows and did not revoke), `master` for the hub token itself.
 */
function tokenState(name: string, token: string | undefined, hub: HubTarget, tokens: ClientTokenStore | undefined): string | undefined {
  if (hub.token === undefined) return undefined;
  if (token === undefined) return `'${name}' carries no token, so the hub answers it with 401; export again`;
  if (token === hub.token) return 'master';
  if (!isClientToken(token)) return `'${name}' carries an old hub token, so the hub answers it with 401; export again`;
  if (!tokens) return undefined;
  const known = tokens.lookup(token);
  if (known?.state === 'valid') return undefined;
  if (known?.state === 'revoked') return `'${name}' carries a client token that was revoked (${known.info.revoked?.slice(0, 10) ?? ''}), so the hub answers it with 401; export again for a new one`;
  return `'${name}' carries a client token this Patchbay does not know (from another data dir, or removed), so the hub answers it with 401; export again`;
}

async function relayProblems(name: string, entry: StdioEntry, serverId: string, deps: DoctorDeps): Promise<string[]> {
  const { host, launcher, dataDir } = deps.service.deps;
  if (!(await resolveCommand(entry.command, deps.desktopPath, host.platform, { fsPath: (p) => onDisk(host, p) }))) {
    return [`'${name}' launches ${entry.command}, which does not exist any more (Node or Patchbay moved or was upgraded)`];
  }
  const relayAt = entry.args.length - 2;
  for (const arg of entry.args.slice(0, relayAt)) {
    if (/^([a-zA-Z]:)?[\\/]/.test(arg) && !(await exists(arg, host))) return [`'${name}' runs ${arg}, which does not exist any more`];
  }
  const expected = relayEntry(launcher, serverId, relayEnv({ host, dataDir }));
  if (!sameData({ command: entry.command, args: entry.args }, { command: expected.command, args: expected.args })) {
    return [`'${name}' launches the relay as \`${[entry.command, ...entry.args].join(' ')}\`; this Patchbay launches it as \`${[expected.command, ...expected.args].join(' ')}\``];
  }
  return [];
}

async function foreignCommandChecks(def: ClientDef, entries: readonly ClientEntry[], deps: DoctorDeps, hub: HubTarget): Promise<DoctorCheck[]> {
  const { host } = deps.service.deps;
  const shellPath = await deps.shellPath();
  const clientPath = def.desktop ? deps.desktopPath : shellPath;
  const out: DoctorCheck[] = [];
  for (const { name, entry } of entries) {
    if (entry.kind !== 'stdio' || recognise(entry, hub)) continue;
    if (await resolveCommand(entry.command, clientPath, host.platform, { fsPath: (p) => onDisk(host, p) })) continue;
    const id = `client-command:${def.id}:${name}`;
    const inShell = isBareCommand(entry.command) ? await resolveCommand(entry.command, `${shellPath}${host.platform === 'win32' ? ';' : ':'}${await deps.hubPath()}`, host.platform, { fsPath: (p) => onDisk(host, p) }) : undefined;
    if (inShell && def.desktop) {
      out.push({
        id,
        area: 'clients',
        status: 'warn',
        title: `${def.name}: '${name}' runs '${entry.command}', which ${def.name} does not find (a desktop app does not get your shell's PATH)`,
        detail: `Your shell finds it at ${inShell}; ${def.name} searches ${clientPath}`,
        hint: `Or route it through Patchbay, whose hub uses your shell's PATH: patchbay import ${def.id} --servers ${name} --replace`,
        fix: { id: `abspath:${def.id}:${name}`, label: `Write the absolute path ${inShell} into '${name}' (a backup is kept)` },
      });
      continue;
    }
    out.push({
      id,
      area: 'clients',
      status: 'error',
      title: `${def.name}: '${name}' runs '${entry.command}', which is not installed`,
      hint: installHint(entry.command),
    });
  }
  return out;
}

/** Windows: the Store build of Claude Desktop ignores %APPDATA%\Claude; servers written there never load. */
async function msixChecks(deps: DoctorDeps): Promise<DoctorCheck[]> {
  const { host } = deps.service.deps;
  if (host.platform !== 'win32') return [];
  const paths = claudeDesktopPaths(host);
  if (!paths.msix || !paths.msixPackageDir || !(await exists(paths.msixPackageDir, host)) || !(await exists(paths.classic, host))) return [];
  const def = CLIENTS.find((c) => c.id === 'claude-desktop')!;
  const missing = await msixMissingEntries(def, paths.classic, paths.msix, deps);
  if (missing.length === 0) return [];
  return [
    {
      id: 'client-msix:claude-desktop',
      area: 'clients',
      status: 'warn',
      title: `Claude Desktop (Microsoft Store) reads ${paths.msix}; the servers in ${paths.classic} are ignored`,
      detail: `Only in the ignored file: ${missing.join(', ')}`,
      fix: { id: 'msix-sync:claude-desktop', label: 'Copy those entries into the file Claude Desktop reads (a backup is kept)' },
    },
  ];
}

/** Entry names in the classic file that the live (MSIX) file lacks. */
export async function msixMissingEntries(def: ClientDef, classic: string, live: string, deps: DoctorDeps): Promise<string[]> {
  const { host } = deps.service.deps;
  try {
    const ignored = clientEntries(await readClientFile(def, classic, host));
    const liveFile = await readClientFile(def, live, host);
    const have = new Set(liveFile.exists ? clientEntries(liveFile).map((e) => e.name) : []);
    return ignored.filter((e) => !have.has(e.name)).map((e) => e.name);
  } catch {
    return [];
  }
}

/** Server ids Patchbay's entries in this client point at that are still served (for a re-export). */
export function liveServerIds(entries: readonly ClientEntry[], deps: DoctorDeps, hub: HubTarget): string[] {
  const servers = deps.service.deps.config.get().mcpServers;
  const ids = new Set<string>();
  for (const { entry } of entries) {
    if (entry.kind === 'unsupported') continue;
    const mine = recognise(entry, hub);
    const server = mine ? servers[mine.serverId] : undefined;
    if (mine && server && !server.disabled) ids.add(mine.serverId);
  }
  return [...ids];
}
