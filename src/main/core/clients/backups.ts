/**
 * Timestamped backups of client config files, kept in the data dir (0700) so a client's folder
 * gets no clutter: `<data dir>/client-backups/<client>/<id>.json` describes the backup and
 * `<id>.bak` holds the exact previous bytes. A backup of a file that did not exist records just
 * that, so rolling back deletes the file Patchbay created.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readdirOrEmpty } from '../fs/read-dir.js';
import type { ClientId } from './client-defs.js';
import { ClientsError } from './clients-error.js';

export type BackupReason = 'export' | 'import' | 'rollback' | 'fix';

export interface BackupRecord {
  id: string;
  clientId: ClientId;
  /** The client config file the backup is of. */
  file: string;
  createdAt: string;
  /** False when the file did not exist before Patchbay wrote it. */
  existed: boolean;
  size: number;
  sha256: string;
  reason: BackupReason;
}

/** How many backups are kept per client; the oldest go first. */
export const BACKUPS_KEPT = 20;
const ID_PATTERN = /^\d{8}T\d{9}Z-[0-9a-f]{6}$/;

export function backupsDir(dataDir: string, clientId: ClientId): string {
  return path.join(dataDir, 'client-backups', clientId);
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function createBackup(
  dataDir: string,
  clientId: ClientId,
  file: string,
  bytes: Buffer | undefined,
  reason: BackupReason,
  now: Date = new Date(),
): Promise<BackupRecord> {
  const dir = backupsDir(dataDir, clientId);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  const id = `${stamp}-${randomBytes(3).toString('hex')}`;
  const record: BackupRecord = {
    id,
    clientId,
    file,
    createdAt: now.toISOString(),
    existed: bytes !== undefined,
    size: bytes?.length ?? 0,
    sha256: sha256(bytes ?? ''),
    reason,
  };
  // The content may hold the person's own API keys: readable by the owner only.
  if (bytes) await writeFile(path.join(dir, `${id}.bak`), bytes, { mode: 0o600, flag: 'wx' });
  await writeFile(path.join(dir, `${id}.json`), JSON.stringify(record, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  await prune(dir);
  return record;
}

/** Newest first. */
export async function listBackups(dataDir: string, clientId: ClientId): Promise<BackupRecord[]> {
  const dir = backupsDir(dataDir, clientId);
  const names = await readdirOrEmpty(dir);
  const records: BackupRecord[] = [];
  for (const name of names) {
    if (!name.endsWith('.json') || !ID_PATTERN.test(name.slice(0, -5))) continue;
    try {
      records.push(JSON.parse(await readFile(path.join(dir, name), 'utf8')) as BackupRecord);
    } catch {
      // A half-written or hand-edited record is skipped, not fatal.
    }
  }
  return records.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** A backup and its bytes (undefined when the file did not exist). Verifies the bytes are intact. */
export async function readBackup(dataDir: string, clientId: ClientId, id?: string): Promise<{ record: BackupRecord; bytes: Buffer | undefined }> {
  const records = await listBackups(dataDir, clientId);
  if (id !== undefined && !ID_PATTERN.test(id)) throw new ClientsError('no_backup', `'${id}' is not a backup id (see the list of backups)`);
  const record = id === undefined ? records[0] : records.find((r) => r.id === id);
  if (!record) throw new ClientsError('no_backup', id === undefined ? `there is no backup for ${clientId} yet` : `there is no backup '${id}' for ${clientId}`);
  if (!record.existed) return { record, bytes: undefined };
  const bytes = await readFile(path.join(backupsDir(dataDir, clientId), `${record.id}.bak`));
  if (sha256(bytes) !== record.sha256) throw new ClientsError('no_backup', `backup '${record.id}' is damaged (its checksum does not match); pick another one`);
  return { record, bytes };
}

async function prune(dir: string): Promise<void> {
  const ids = (await readdir(dir))
    .filter((n) => n.endsWith('.json'))
    .map((n) => n.slice(0, -5))
    .filter((id) => ID_PATTERN.test(id))
    .sort();
  for (const id of ids.slice(0, Math.max(0, ids.length - BACKUPS_KEPT))) {
    await rm(path.join(dir, `${id}.bak`), { force: true });
    await rm(path.join(dir, `${id}.json`), { force: true });
  }
}
