/**
 * A registry's copy on disk, `<dataDir>/catalog/<sha256(url)[0..16]>.json`: the latest version
 * of each name, when it was fetched, and the ETag of the last answer. Searches read this copy,
 * never the network; a refresh replaces it (a full read) or merges into it (`updated_since`).
 *
 * Also the snapshot shipped with Patchbay (`assets/registry-snapshot.json`), which answers for
 * the official registry before any copy exists (a first run without network).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errCode } from '../fs/err-code.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { ParsedEntry } from './server-document.js';
import { parseEntries, serverListSchema, updatedTime } from './server-document.js';

export const COPY_FORMAT = 1;

export interface RegistryCopy {
  format: typeof COPY_FORMAT;
  url: string;
  /** ISO time of the last successful refresh (a 304 counts). */
  fetchedAt: string;
  /** ISO time of the last full read (not `updated_since`): one a week catches anything a merge missed. */
  fullAt: string;
  etag?: string;
  /** The first-page URL path the ETag answered (an ETag is only sent back to the same URL). */
  etagPath?: string;
  entries: ParsedEntry[];
}

export function copyFile(dataDir: string, url: string): string {
  return path.join(dataDir, 'catalog', `${createHash('sha256').update(url).digest('hex').slice(0, 16)}.json`);
}

/** The copy on disk; `undefined` when there is none. A file that cannot be read says why (`problem`) and counts as none. */
export function readCopy(file: string, url: string): { copy?: RegistryCopy; problem?: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (errCode(err) === 'ENOENT') return {};
    return { problem: `cannot read ${file}: ${err instanceof Error ? err.message : String(err)}` };
  }
  try {
    const raw = JSON.parse(text) as Partial<RegistryCopy> & { entries?: unknown };
    if (raw.format !== COPY_FORMAT || raw.url !== url || typeof raw.fetchedAt !== 'string' || !Array.isArray(raw.entries)) {
      return { problem: `${file} is not a copy of ${url} in this format; it will be replaced` };
    }
    // Stored as read from the registry; checked again so a hand-edited file cannot smuggle a bad document in.
    const { entries } = parseEntries(raw.entries.map((e: { document?: unknown; official?: unknown }) => ({ server: e.document, _meta: { 'io.modelcontextprotocol.registry/official': e.official } })));
    return {
      copy: {
        format: COPY_FORMAT,
        url,
        fetchedAt: raw.fetchedAt,
        fullAt: typeof raw.fullAt === 'string' ? raw.fullAt : raw.fetchedAt,
        ...(typeof raw.etag === 'string' ? { etag: raw.etag } : {}),
        ...(typeof raw.etagPath === 'string' ? { etagPath: raw.etagPath } : {}),
        entries,
      },
    };
  } catch (err) {
    return { problem: `${file} is not JSON (${err instanceof Error ? err.message : String(err)}); it will be replaced` };
  }
}

export async function writeCopy(file: string, copy: RegistryCopy): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify(copy));
}

const isDeleted = (e: ParsedEntry) => e.official?.status === 'deleted';

/** A full read: one entry per name (the latest when a registry sends several), deleted ones left out. */
export function replaceEntries(received: readonly ParsedEntry[]): ParsedEntry[] {
  return mergeEntries([], received);
}

/**
 * An `updated_since` read merged into the copy: a name's newer latest replaces it, a `deleted`
 * status removes it. Versions that are no longer the latest (`isLatest: false`) change nothing.
 */
export function mergeEntries(current: readonly ParsedEntry[], changes: readonly ParsedEntry[]): ParsedEntry[] {
  const byName = new Map(current.map((e) => [e.document.name, e]));
  for (const change of changes) {
    const name = change.document.name;
    if (isDeleted(change)) {
      const held = byName.get(name);
      if (!held || held.document.version === change.document.version || change.official?.isLatest !== false) byName.delete(name);
      continue;
    }
    if (change.official?.isLatest === false) continue;
    const held = byName.get(name);
    if (held && held.document.version !== change.document.version && updatedTime(held) > updatedTime(change)) continue;
    byName.set(name, change);
  }
  return [...byName.values()];
}

/**
 * What to send as `updated_since`: the newest `updatedAt` in the copy, in the registry's own
 * clock (so a machine whose clock is off neither misses changes nor refetches everything).
 */
export function newestUpdate(entries: readonly ParsedEntry[]): string | undefined {
  let newest: ParsedEntry | undefined;
  for (const e of entries) if (updatedTime(e) > 0 && (!newest || updatedTime(e) > updatedTime(newest))) newest = e;
  return newest ? new Date(updatedTime(newest)).toISOString() : undefined;
}

/**
 * The snapshot in the package: `assets/registry-snapshot.json` at the package root, found from
 * this module's place the way the UI is (static-files.ts): four levels up from
 * `{src,dist}/main/core/catalog/`, or three from the desktop app's bundle in `dist/main/electron/`
 * (electron-builder.yml packs the file).
 */
export function defaultSnapshotFile(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '..', '..', '..', '..'), path.resolve(here, '..', '..', '..')].map((root) => path.join(root, 'assets', 'registry-snapshot.json'));
  return candidates.find((file) => existsSync(file)) ?? (candidates[0] as string);
}

/** The snapshot's entries, or why there are none. */
export function readSnapshot(file: string): { entries: ParsedEntry[]; generatedAt?: string; problem?: string } {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { generatedAt?: unknown };
    const list = serverListSchema.safeParse(raw);
    if (!list.success) return { entries: [], problem: `${file} is not a server list` };
    return { entries: replaceEntries(parseEntries(list.data.servers).entries), ...(typeof raw.generatedAt === 'string' ? { generatedAt: raw.generatedAt } : {}) };
  } catch (err) {
    return { entries: [], problem: `cannot read the snapshot ${file}: ${err instanceof Error ? err.message : String(err)}` };
  }
}
