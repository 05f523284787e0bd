/**
 * The file behind the client token store (client-tokens.ts): its JSON shape, reading it
 * leniently, writing it (with revoked records capped), its change stamp, and the lock file that
 * orders writers in different processes.
 */
import { readFile, stat } from 'node:fs/promises';
import { errCode } from '../fs/err-code.js';
import { fileLock, type CrossProcessLock } from '../fs/file-lock.js';
import type { ClientTokenInfo } from './client-tokens.js';

/** Revoked records kept (newest first) so a revoked token gets "revoked", not "unknown". */
const REVOKED_KEPT = 200;
const LOCK_STALE_MS = 10_000;
const LOCK_WAIT_MS = 10_000;

export interface StoredToken extends ClientTokenInfo {
  /** SHA-256 of the token, hex. */
  hash: string;
}

export async function stampOf(file: string): Promise<string> {
  try {
    const s = await stat(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch (err) {
    if (errCode(err) === 'ENOENT') return '';
    throw err;
  }
}

export async function readStore(file: string): Promise<StoredToken[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (errCode(err) === 'ENOENT') return [];
    throw err;
  }
  return parseStore(text, file);
}

const str = (v: unknown): v is string => typeof v === 'string';

export function parseStore(text: string, file: string): StoredToken[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}); fix or delete it (deleting it makes every client token unknown: export the clients again)`);
  }
  const list = (data as { tokens?: unknown } | null)?.tokens;
  if (!Array.isArray(list)) throw new Error(`${file} holds no "tokens" list; fix or delete it (deleting it makes every client token unknown: export the clients again)`);
  const out: StoredToken[] = [];
  for (const t of list as Array<Record<string, unknown>>) {
    // A record this version cannot read is skipped rather than failing every client.
    if (!t || !str(t.id) || !str(t.hash) || !/^[0-9a-f]{64}$/.test(t.hash) || !str(t.client) || !str(t.label) || !str(t.file) || !str(t.created)) continue;
    const record: StoredToken = { id: t.id, hash: t.hash, client: t.client, label: t.label, file: t.file, created: t.created };
    if (str(t.lastUsed)) record.lastUsed = t.lastUsed;
    if (str(t.revoked)) record.revoked = t.revoked;
    out.push(record);
  }
  return out;
}

export function render(tokens: StoredToken[]): string {
  // Revoked records beyond the newest REVOKED_KEPT go: their tokens become "unknown" (still 401).
  let revoked = 0;
  const kept = tokens.filter((t) => t.revoked === undefined || ++revoked <= REVOKED_KEPT);
  const records = kept.map(({ id, hash, client, label, file, created, lastUsed, revoked: r }) => ({ id, hash, client, label, file, created, ...(lastUsed ? { lastUsed } : {}), ...(r ? { revoked: r } : {}) }));
  return JSON.stringify({ version: 1, tokens: records }, null, 2) + '\n';
}

/** The store's lock (fs/file-lock.ts), shared by every process on this data dir. */
export function storeLock(lockFile: string): CrossProcessLock {
  return fileLock(lockFile, { staleMs: LOCK_STALE_MS, waitMs: LOCK_WAIT_MS, busy: 'the client token store is locked by another Patchbay process' });
}
