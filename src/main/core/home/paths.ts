/**
 * Where Patchbay keeps its files. Everything is derived from one data dir so that tests, CI and
 * a second install can point the whole engine elsewhere with `PATCHBAY_HOME`.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

export interface DataDirInputs {
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  homedir: string;
}

export interface DataPaths {
  dataDir: string;
  configFile: string;
  secretsFile: string;
  tokenFile: string;
  /** Hashes and metadata of the per-client tokens (home/client-tokens.ts). */
  clientTokensFile: string;
  discoveryFile: string;
  logsDir: string;
  /** Digests of the tool definitions each profile exposed (profiles/tool-pins.ts). */
  toolPinsFile: string;
  /** The audit trail's files (audit/audit-log.ts). */
  auditDir: string;
}

/**
 * The data dir: `PATCHBAY_HOME` when set, else the platform's per-user app data folder.
 * Inputs are injected (not read from `process`) so every platform's answer is testable anywhere.
 */
export function resolveDataDir({ env, platform, homedir }: DataDirInputs): string {
  // Windows paths must be built with win32 rules even when this runs (in tests) on Linux.
  const p = platform === 'win32' ? path.win32 : path.posix;
  const override = nonEmpty(env.PATCHBAY_HOME);
  if (override) return p.resolve(override);
  switch (platform) {
    case 'darwin':
      return p.join(homedir, 'Library', 'Application Support', 'Patchbay');
    case 'win32':
      return p.join(nonEmpty(env.APPDATA) ?? p.join(homedir, 'AppData', 'Roaming'), 'Patchbay');
    default: {
      // XDG says a relative XDG_CONFIG_HOME is invalid and must be ignored.
      const xdg = nonEmpty(env.XDG_CONFIG_HOME);
      const base = xdg && p.isAbsolute(xdg) ? xdg : p.join(homedir, '.config');
      return p.join(base, 'patchbay');
    }
  }
}

/** The well-known files inside a data dir. */
export function dataPaths(dataDir: string): DataPaths {
  return {
    dataDir,
    configFile: path.join(dataDir, 'config.json'),
    secretsFile: path.join(dataDir, 'secrets.json'),
    tokenFile: path.join(dataDir, 'hub-token'),
    clientTokensFile: path.join(dataDir, 'client-tokens.json'),
    discoveryFile: path.join(dataDir, 'hub.json'),
    logsDir: path.join(dataDir, 'logs'),
    toolPinsFile: path.join(dataDir, 'tool-pins.json'),
    auditDir: path.join(dataDir, 'audit'),
  };
}

/**
 * Create the data dir (and missing parents) readable by the owner only: it holds the hub token
 * and the secret store. An existing dir is left as the user set it up.
 */
export async function ensureDataDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}
