/**
 * Finding a running hub: the discovery file `hub.json` that the engine writes into the data dir
 * (and removes on close), checked against a live process and a `GET /health` answer, because a
 * hub that crashed leaves its file behind. Such a file (its process gone) is removed at once by
 * whoever finds it (issue 17 item 8), so nothing else that reads it is misled.
 */
import { randomBytes } from 'node:crypto';
import { link, readFile, rename, unlink } from 'node:fs/promises';
import { errCode } from '../core/index.js';
import { discard, httpCall } from './hub-http.js';

export interface HubInfo {
  pid: number;
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
}

export type Discovery =
  | { ok: true; value: HubInfo }
  | { ok: false; code: 'missing' | 'invalid' | 'not-answering'; message: string }
  /** `text`: the stale file's content, for `removeStaleDiscovery`. */
  | { ok: false; code: 'dead'; message: string; text: string };

/** Reads and checks the discovery file: present, well formed, its process alive and answering. */
export async function discoverHub(discoveryFile: string, timeoutMs = 2000): Promise<Discovery> {
  let text: string;
  try {
    text = await readFile(discoveryFile, 'utf8');
  } catch (err) {
    if (errCode(err) === 'ENOENT') return { ok: false, code: 'missing', message: `no hub is running (${discoveryFile} does not exist)` };
    return { ok: false, code: 'invalid', message: `cannot read ${discoveryFile}: ${(err as Error).message}` };
  }
  const parsed = parseDiscovery(text);
  if (!parsed.ok) return { ok: false, code: 'invalid', message: `${discoveryFile}: ${parsed.message}` };
  const hub = parsed.value;
  if (!isAlive(hub.pid)) return { ok: false, code: 'dead', message: `the hub recorded in ${discoveryFile} (pid ${hub.pid}) is not running`, text };
  if (!(await answersHealth(hub.url, timeoutMs))) {
    return { ok: false, code: 'not-answering', message: `the hub at ${hub.url} (pid ${hub.pid}) does not answer GET /health` };
  }
  return { ok: true, value: hub };
}

/** Validates the discovery file's content (written by the engine, but read from disk: a trust boundary). */
export function parseDiscovery(text: string): { ok: true; value: HubInfo } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'not valid JSON' };
  }
  const v = value as { pid?: unknown; port?: unknown; url?: unknown };
  if (typeof v !== 'object' || v === null) return { ok: false, message: 'not a JSON object' };
  if (!Number.isSafeInteger(v.pid) || (v.pid as number) <= 0) return { ok: false, message: '"pid" must be a positive integer' };
  if (!Number.isSafeInteger(v.port) || (v.port as number) <= 0 || (v.port as number) > 65535) return { ok: false, message: '"port" must be a TCP port' };
  const port = v.port as number;
  // Only loopback: the relay sends the hub token there, so the file must not point it elsewhere.
  const url = `http://127.0.0.1:${port}`;
  if (v.url !== undefined && typeof v.url === 'string' && v.url.replace(/\/$/, '') !== url) {
    return { ok: false, message: `"url" must be ${url} (the relay only talks to a hub on loopback)` };
  }
  return { ok: true, value: { pid: v.pid as number, port, url } };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return errCode(err) === 'EPERM';
  }
}

export async function answersHealth(baseUrl: string, timeoutMs: number): Promise<boolean> {
  try {
    const res = await httpCall({ method: 'GET', url: `${baseUrl}/health`, headers: {}, timeoutMs });
    discard(res);
    return res.statusCode === 200;
  } catch {
    return false;
  }
}

/**
 * Removes a discovery file left by a hub that is gone (killed, crashed, or a reboot), if it still
 * holds `staleText`: a hub starting meanwhile writes a fresh one, which must stay. The file is
 * renamed aside first, so a fresh file written between the check and the removal is put back.
 * Only files whose process is gone are removed; a half-written or unreadable file may be a hub
 * starting right now, so those are left alone. Resolves true when the stale file is gone.
 */
export async function removeStaleDiscovery(discoveryFile: string, staleText: string): Promise<boolean> {
  const aside = `${discoveryFile}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(discoveryFile, aside);
  } catch (err) {
    return errCode(err) === 'ENOENT';
  }
  const moved = await readFile(aside, 'utf8').catch(() => staleText);
  if (moved !== staleText) {
    // A hub wrote its file between our read and the rename: put it back (unless a newer one
    // appeared since, which then wins).
    await link(aside, discoveryFile).catch(() => undefined);
    await unlink(aside).catch(() => undefined);
    return false;
  }
  await unlink(aside).catch(() => undefined);
  return true;
}
