/**
 * `patchbay doctor`: checks for what goes wrong in practice, each with what to do about it and,
 * where a fix is safe (it only rewrites Patchbay's own entries, or one entry's command, with a
 * backup kept), a fix that can be applied from the CLI or the UI.
 */
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import type { ServerEra } from '../../../shared/api/servers-contract.js';
import { isStdioServer } from '../../../shared/config-schema.js';
import { eraOfSetting } from '../../../shared/protocol.js';
import { findSecretRefs } from '../config/secret-refs.js';
import { errCode } from '../fs/err-code.js';
import { onDisk } from './client-host.js';
import type { ClientsService } from './clients-service.js';
import { installHint, resolveCommand } from '../upstream/command-resolve.js';
import { clientChecks } from './doctor-clients.js';
import { sandboxChecks } from './doctor-sandbox.js';

export type CheckStatus = 'ok' | 'info' | 'warn' | 'error';

export interface DoctorCheck {
  /** Stable per subject, e.g. `server-command:github`. */
  id: string;
  area: 'patchbay' | 'hub' | 'servers' | 'clients';
  status: CheckStatus;
  title: string;
  detail?: string;
  /** What to do by hand. */
  hint?: string;
  /** A safe fix Patchbay can apply (a backup is kept). */
  fix?: { id: string; label: string };
}

export interface DoctorReport {
  checks: DoctorCheck[];
  counts: Record<CheckStatus, number>;
}

export type HubProbe = { state: 'running'; url: string; port: number; self: boolean } | { state: 'stopped'; port: number; portFree: boolean };

export interface DoctorDeps {
  service: ClientsService;
  configFile: string;
  configProblems(): ReadonlyArray<{ path: string; message: string }>;
  tokenFile: string;
  hub(): Promise<HubProbe>;
  /** The PATH the hub starts servers with (its own, with the login shell's in front). */
  hubPath(): Promise<string>;
  /** The PATH of the person's login shell (what a terminal sees). */
  shellPath(): Promise<string>;
  /** The PATH a desktop-launched client sees. */
  desktopPath: string;
  /** The protocol era of each server as the running hub knows it (undefined: no hub to ask). */
  serverEras?(): Promise<Record<string, ServerEra | undefined> | undefined>;
  /**
   * Servers installed from a registry whose cached copy has a newer version (docs/catalog.md),
   * never fetched for the doctor; injected, since clients do not import the catalog. Undefined: unknown.
   */
  outdated?(): Promise<ReadonlyArray<OutdatedServer> | undefined>;
}

export interface OutdatedServer {
  serverId: string;
  name: string;
  installed: string;
  latest: string;
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43,}$/;

export async function runDoctor(deps: DoctorDeps): Promise<DoctorReport> {
  const checks: DoctorCheck[] = [];
  checks.push(...configChecks(deps));
  checks.push(...(await secretChecks(deps)));
  checks.push(await tokenCheck(deps));
  checks.push(await hubCheck(deps));
  checks.push(...(await serverCommandChecks(deps)));
  checks.push(...(await serverEraChecks(deps)));
  checks.push(...(await outdatedChecks(deps)));
  checks.push(...(await sandboxChecks(deps)));
  checks.push(...(await clientChecks(deps)));
  const counts: Record<CheckStatus, number> = { ok: 0, info: 0, warn: 0, error: 0 };
  for (const check of checks) counts[check.status]++;
  return { checks, counts };
}

/** One line per server with a newer version in its registry (from the cached copy: no network). */
async function outdatedChecks(deps: DoctorDeps): Promise<DoctorCheck[]> {
  const outdated = await deps.outdated?.().catch(() => undefined);
  return (outdated ?? []).map((o) => ({
    id: `server-outdated:${o.serverId}`,
    area: 'servers' as const,
    status: 'info' as const,
    title: `${o.serverId}: ${o.name} ${o.latest} is available (installed: ${o.installed})`,
    hint: `patchbay update ${o.serverId}`,
  }));
}

function configChecks(deps: DoctorDeps): DoctorCheck[] {
  const problems = deps.configProblems();
  if (problems.length === 0) return [{ id: 'config', area: 'patchbay', status: 'ok', title: `config is valid (${deps.configFile})` }];
  return [
    {
      id: 'config',
      area: 'patchbay',
      status: 'error',
      title: `config.json has ${problems.length} problem(s); Patchbay keeps serving the last good config`,
      detail: problems.map((p) => `${p.path}: ${p.message}`).join('\n'),
      hint: `Fix ${deps.configFile} (patchbay config check shows each problem)`,
    },
  ];
}

async function secretChecks(deps: DoctorDeps): Promise<DoctorCheck[]> {
  const refs = findSecretRefs(deps.service.deps.config.get());
  const names = new Set(await deps.service.deps.secrets.list());
  const out: DoctorCheck[] = [];
  for (const ref of refs) {
    if (ref.valid && names.has(ref.name)) continue;
    out.push({
      id: `secret:${ref.serverId}:${ref.name}`,
      area: 'servers',
      status: 'error',
      title: ref.valid ? `server '${ref.serverId}' needs secret '${ref.name}', which is not set` : `server '${ref.serverId}' has an invalid \${secret:…} reference`,
      detail: ref.path,
      hint: ref.valid ? `patchbay secrets set ${ref.name}` : 'Write ${secret:NAME} with a name of letters, digits, "_", "-" and "."',
    });
  }
  return out;
}

async function tokenCheck(deps: DoctorDeps): Promise<DoctorCheck> {
  try {
    const token = (await readFile(deps.tokenFile, 'utf8')).trim();
    if (TOKEN_PATTERN.test(token)) return { id: 'token', area: 'hub', status: 'ok', title: 'hub token present' };
    return { id: 'token', area: 'hub', status: 'error', title: 'the hub token file does not hold a valid token', hint: `Delete ${deps.tokenFile}; a new token is made on the next start (then export to your clients again)` };
  } catch (err) {
    if (errCode(err) === 'ENOENT') return { id: 'token', area: 'hub', status: 'info', title: 'no hub token yet; it is created when the hub first starts or on the first export' };
    return { id: 'token', area: 'hub', status: 'error', title: `cannot read the hub token (${errCode(err) ?? String(err)})`, hint: `Check the permissions of ${deps.tokenFile}` };
  }
}

async function hubCheck(deps: DoctorDeps): Promise<DoctorCheck> {
  const probe = await deps.hub();
  if (probe.state === 'running') return { id: 'hub', area: 'hub', status: 'ok', title: `hub running at ${probe.url}` };
  if (!probe.portFree) {
    return {
      id: 'hub',
      area: 'hub',
      status: 'error',
      title: `port ${probe.port} is taken by another program, so the hub cannot start`,
      hint: 'Stop that program, or set "hub": {"port": <free port>} in config.json and export to your clients again',
    };
  }
  return { id: 'hub', area: 'hub', status: 'info', title: `hub not running (port ${probe.port} is free)`, hint: 'Start it with `patchbay serve` or the Patchbay app; clients reach servers only while it runs' };
}

async function serverCommandChecks(deps: DoctorDeps): Promise<DoctorCheck[]> {
  const { platform } = deps.service.deps.host;
  const hubPath = await deps.hubPath();
  const out: DoctorCheck[] = [];
  for (const [id, server] of Object.entries(deps.service.deps.config.get().mcpServers)) {
    if (server.disabled || !isStdioServer(server)) continue;
    const found = await resolveCommand(server.command, hubPath, platform, { fsPath: (p) => onDisk(deps.service.deps.host, p) });
    if (found) {
      out.push({ id: `server-command:${id}`, area: 'servers', status: 'ok', title: `server '${id}': ${server.command} → ${found}` });
      continue;
    }
    out.push({
      id: `server-command:${id}`,
      area: 'servers',
      status: 'error',
      title: `server '${id}': command '${server.command}' not found`,
      detail: `Searched the hub's PATH (the login shell's PATH plus its own): ${hubPath}`,
      hint: installHint(server.command),
    });
  }
  return out;
}

/**
 * Which protocol era each server speaks (2026-07-28 basic/versioning). Information, never a
 * failure: the hub bridges the eras, so any client reaches any server; knowing which side is
 * which explains what the inspector shows. Without a running hub only a pinned era is known.
 */
async function serverEraChecks(deps: DoctorDeps): Promise<DoctorCheck[]> {
  const servers = Object.entries(deps.service.deps.config.get().mcpServers).filter(([, server]) => !server.disabled);
  if (servers.length === 0) return [];
  let known: Record<string, ServerEra | undefined> | undefined;
  try {
    known = await deps.serverEras?.();
  } catch {
    known = undefined; // the hub check above already says when the hub cannot be reached
  }
  const out: DoctorCheck[] = [];
  for (const [id, server] of servers) {
    const pinned = eraOfSetting(server.protocol);
    const era: ServerEra | undefined =
      known?.[id] ??
      (pinned && { era: pinned.era, legacy: { speaks: pinned.era === 'legacy', how: 'config' }, modern: { speaks: pinned.era === 'modern', how: 'config' }, ...(pinned.pinned ? { pinned: pinned.pinned } : {}) });
    out.push({ id: `server-era:${id}`, area: 'servers', status: 'info', title: `server '${id}': ${describeEra(era, known !== undefined)}` });
  }
  return out;
}

export function describeEra(era: ServerEra | undefined, hubAsked: boolean): string {
  if (!era) return hubAsked ? 'protocol era not known yet (found out on its first connection)' : 'protocol era found out when the hub first connects (start the hub to see it)';
  const name =
    era.era === 'both'
      ? 'both protocol eras (2025: initialize and sessions; 2026-07-28: sessionless), each client in its own'
      : era.era === 'modern'
        ? 'the modern era (2026-07-28: sessionless)'
        : 'the legacy era (2025 and earlier: initialize and sessions)';
  const versions = era.versions?.length ? `; supports ${era.versions.join(', ')}` : '';
  if (era.legacy?.how === 'config' && era.modern?.how === 'config') return `speaks ${name}, ${era.pinned ? `pinned to ${era.pinned}` : 'set'} in config.json${versions}`;
  const fact = (label: string, f: ServerEra['legacy']): string =>
    !f ? `${label}: not asked yet` : `${label}: ${f.speaks ? 'yes' : 'no'} (${f.how === 'config' ? 'config.json' : f.how === 'probe' ? 'its answer to a server/discover probe' : 'its answer to initialize'})`;
  return `speaks ${name} — ${fact('2025', era.legacy)}, ${fact('2026-07-28', era.modern)}${versions}`;
}

/** Whether `port` on 127.0.0.1 can be bound right now. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}
