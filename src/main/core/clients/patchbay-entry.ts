/**
 * The entries Patchbay writes into clients, and how it recognises them again later so that a
 * second export updates them instead of adding duplicates. Stdio entries launch the relay by
 * absolute path (a desktop-launched client does not share the shell's PATH); URL entries point at
 * the hub with a client token minted for that client's file (home/client-tokens.ts), the only
 * credential Patchbay ever writes into a client's file.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_HUB_PORT } from '../../../shared/config-schema.js';
import { isClientToken } from '../home/client-tokens.js';
import type { HttpEntry, NeutralEntry, StdioEntry } from './neutral-entry.js';

/**
 * How the relay is started; `relay <server>` is appended to `args`. A plain install runs the
 * CLI script with the current Node binary; the desktop app supplies its own executable, its
 * bundled relay script and `ELECTRON_RUN_AS_NODE=1`.
 */
export interface RelayLauncher {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** Where URL entries point, and the hub token (entries carry a client token instead since issue 17). */
export interface HubTarget {
  port: number;
  token: string | undefined;
}

/** `node <repo>/bin/patchbay.js` for a plain install (also `npx patchbay` from a checkout). */
export function plainInstallLauncher(): RelayLauncher {
  // This file sits at src/main/core/clients/ (tests) or dist/main/core/clients/ (built): four levels below the package root.
  const script = fileURLToPath(new URL('../../../../bin/patchbay.js', import.meta.url));
  return { command: process.execPath, args: [script] };
}

export function relayEntry(launcher: RelayLauncher, serverId: string, extraEnv: Record<string, string> = {}): StdioEntry {
  return { kind: 'stdio', command: launcher.command, args: [...launcher.args, 'relay', serverId], env: { ...(launcher.env ?? {}), ...extraEnv } };
}

export function hubUrl(port: number, serverId: string): string {
  // A profile (`@name`) keeps its `@` readable: /mcp/@work.
  const segment = serverId.startsWith('@') ? `@${encodeURIComponent(serverId.slice(1))}` : encodeURIComponent(serverId);
  return `http://127.0.0.1:${port}/mcp/${segment}`;
}

export function hubEntry(hub: HubTarget, serverId: string): HttpEntry {
  const headers: Record<string, string> = hub.token ? { Authorization: `Bearer ${hub.token}` } : {};
  return { kind: 'http', url: hubUrl(hub.port, serverId), headers, transport: 'http' };
}

export interface Recognised {
  serverId: string;
  kind: 'stdio' | 'http';
  /** URL entries: the port and bearer token they carry (to spot stale ones). */
  port?: number;
  token?: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** A name that says "Patchbay": the CLI script, the app's executable, the bundled relay script. */
const PATCHBAY_NAME = /patchbay/i;

/**
 * Patchbay's entry for which server, or undefined when the entry is not Patchbay's. Stdio: the
 * command line ends in `relay <server>` and is launched through something named Patchbay. URL: a
 * loopback `/mcp/<server>` URL on the hub's port (or the default one), or carrying the hub's token
 * or a client token (`pbc_…`).
 */
export function recognise(entry: NeutralEntry, hub: HubTarget): Recognised | undefined {
  if (entry.kind === 'stdio') {
    const { args } = entry;
    const at = args.length - 2;
    if (at < 0 || args[at] !== 'relay') return undefined;
    const launchedBy = [entry.command, ...args.slice(0, at)];
    if (!launchedBy.some((part) => PATCHBAY_NAME.test(baseName(part)))) return undefined;
    const serverId = args[at + 1];
    return serverId ? { serverId, kind: 'stdio' } : undefined;
  }
  let url: URL;
  try {
    url = new URL(entry.url);
  } catch {
    return undefined;
  }
  const match = /^\/mcp\/([^/]+)\/?$/.exec(url.pathname);
  if (!match || !LOOPBACK.has(url.hostname) || url.protocol !== 'http:') return undefined;
  const port = Number(url.port || 80);
  const token = bearer(entry.headers);
  const ours = port === hub.port || port === DEFAULT_HUB_PORT || (token !== undefined && (token === hub.token || isClientToken(token)));
  if (!ours) return undefined;
  let serverId: string;
  try {
    serverId = decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
  return { serverId, kind: 'http', port, ...(token !== undefined ? { token } : {}) };
}

export function bearer(headers: Record<string, string>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'authorization') continue;
    const match = /^Bearer\s+(\S+)$/i.exec(value.trim());
    if (match) return match[1];
  }
  return undefined;
}

/** The last path segment, whichever separator the path uses (Windows paths in a Linux test too). */
function baseName(p: string): string {
  return path.win32.basename(path.posix.basename(p));
}
