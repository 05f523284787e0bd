/** Server entries for a test hub's config: the stdio fixtures, and the shape of a remote entry. */
import path from 'node:path';
import { FIXTURES_DIR } from './repo-paths.js';

export const EVERYTHING_SERVER = path.join(FIXTURES_DIR, 'everything-server.mjs');
export const PROBE_SERVER = path.join(FIXTURES_DIR, 'probe-server.mjs');

/** A stdio server entry, as the config takes it. */
export interface ServerEntry {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  shared?: boolean;
  stateless?: boolean;
  warmSpare?: boolean;
  requestTimeoutMs?: number;
  disabled?: boolean;
  [key: string]: unknown;
}

/** A remote server entry (Streamable HTTP or legacy HTTP+SSE), as the config takes it. */
export interface RemoteServerEntry {
  url: string;
  type?: 'http' | 'sse' | 'streamable-http';
  transport?: 'auto' | 'streamable-http' | 'http' | 'sse';
  headers?: Record<string, string>;
  requestTimeoutMs?: number;
  [key: string]: unknown;
}

/** The everything fixture as a stdio server entry. */
export function everythingServer(extra: Partial<ServerEntry> = {}): ServerEntry {
  return { command: process.execPath, args: [EVERYTHING_SERVER], ...extra };
}

/** The probe fixture as a stdio server entry; `env` switches its behaviour (see the fixture). */
export function probeServer(extra: Partial<ServerEntry> = {}): ServerEntry {
  return { command: process.execPath, args: [PROBE_SERVER], ...extra };
}
