/**
 * Per-client tokens (issue 17): each HTTP client Patchbay exports to gets a bearer token of its
 * own, so a leaked client config can be revoked alone and the inspector can name the client.
 * `<data dir>/client-tokens.json` (0600) keeps a SHA-256 of each token and its metadata, never
 * the token: the value exists only in the client's config file, written at export.
 *
 * Several processes share the store: the hub checks tokens (and notes when each was last used),
 * the CLI mints them (`export`) and revokes them (`tokens revoke`). Every change is a
 * read-modify-write under a lock file; the hub reloads the file when it changes (a watch, a
 * slow poll as a safety net, and a stat when an unknown client token shows up).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { errCode } from '../fs/err-code.js';
import { addLogScrubber, createLogger } from '../log/logger.js';
import { parseStore, storeLock, readStore, render, stampOf, type StoredToken } from './client-tokens-file.js';

const log = createLogger('client-tokens');

/** Client tokens start with this, so the hub, the doctor and a secret scanner can tell them from the hub token. */
export const CLIENT_TOKEN_PREFIX = 'pbc_';
const TOKEN_TEXT = /pbc_[A-Za-z0-9_-]{43}/g;

/** What anyone may see of a client token: never its value, never its hash. */
export interface ClientTokenInfo {
  id: string;
  /** The client's id (`cursor`, `claude-code`, …). */
  client: string;
  /** The client's name as people know it (`Cursor`): the inspector's "via token". */
  label: string;
  /** The config file the token was written into. */
  file: string;
  created: string;
  lastUsed?: string;
  revoked?: string;
}

export type ClientTokenCheck = { state: 'valid' | 'revoked'; info: ClientTokenInfo } | { state: 'unknown' };


export function isClientToken(value: string): boolean {
  return value.startsWith(CLIENT_TOKEN_PREFIX);
}

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

let scrubberAdded = false;
/** Client tokens never reach a log line, whoever writes it. */
function scrubLogs(): void {
  if (scrubberAdded) return;
  scrubberAdded = true;
  addLogScrubber((text) => (text.includes(CLIENT_TOKEN_PREFIX) ? text.replace(TOKEN_TEXT, 'pbc_[redacted]') : text));
}

export interface ClientTokenStoreOptions {
  /** Follow changes other processes make (the hub). Default false (the CLI reads once). */
  watch?: boolean;
  /** How often noted uses are written as `lastUsed` (default 60 s): never a write per request. */
  flushMs?: number;
  now?: () => Date;
}

export class ClientTokenStore {
  private tokens: StoredToken[] = [];
  private byHash = new Map<string, StoredToken>();
  /** Uses noted since the last flush: token id → epoch ms. */
  private readonly used = new Map<string, number>();
  /** The file as last read (`ino:size:mtime`), to see whether it changed. */
  private stamp = '';
  private watcher: FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<() => void>();
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly options: ClientTokenStoreOptions,
  ) {}

  /** Opens the store (a missing file is an empty store). Throws when the file is not a store. */
  static async open(file: string, options: ClientTokenStoreOptions = {}): Promise<ClientTokenStore> {
    scrubLogs();
    const store = new ClientTokenStore(file, options);
    store.apply(await readStore(file), await stampOf(file));
    if (options.watch) {
      // The folder is what is watched: it must exist (the hub's data dir always does).
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      store.follow();
    }
    return store;
  }

  /**
   * The hub's check, on every request with a client token: a hash and a Map lookup, no disk. Only
   * an unknown client token costs a stat (it may have been minted by another process a moment ago).
   * Undefined when the value is not a client token at all (no `pbc_` prefix).
   */
  check(token: string): ClientTokenCheck | undefined {
    if (!isClientToken(token)) return undefined;
    const found = this.find(token);
    if (found && found.revoked === undefined) this.noteUse(found.id);
    return found === undefined ? { state: 'unknown' } : { state: found.revoked === undefined ? 'valid' : 'revoked', info: publicInfo(found) };
  }

  /** What a token is, like `check` but without noting a use (the doctor). Undefined: not a client token at all. */
  lookup(token: string): ClientTokenCheck | undefined {
    if (!isClientToken(token)) return undefined;
    const found = this.find(token);
    return found === undefined ? { state: 'unknown' } : { state: found.revoked === undefined ? 'valid' : 'revoked', info: publicInfo(found) };
  }

  private find(token: string): StoredToken | undefined {
    const hash = hashOf(token);
    let found = this.byHash.get(hash);
    if (!found && this.changedOnDisk()) {
      this.reloadSync();
      found = this.byHash.get(hash);
    }
    // The lookup's timing depends only on the hash of what was presented, which tells nothing about
    // any stored token; the final comparison is constant-time all the same.
    if (!found || !timingSafeEqual(Buffer.from(found.hash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
    return found;
  }

  /** Metadata of every token, newest first, with uses not yet written included. */
  list(): ClientTokenInfo[] {
    return this.tokens.map((t) => {
      const info = publicInfo(t);
      const used = this.used.get(t.id);
      if (used !== undefined && (info.lastUsed === undefined || Date.parse(info.lastUsed) < used)) info.lastUsed = new Date(used).toISOString();
      return info;
    });
  }

  /** The still-valid record of a token for this client and file, if it is one. */
  validFor(token: string, client: string, file: string): ClientTokenInfo | undefined {
    const found = isClientToken(token) ? this.byHash.get(hashOf(token)) : undefined;
    return found && found.revoked === undefined && found.client === client && found.file === file ? publicInfo(found) : undefined;
  }

  /** A new token. Its value is returned this once: the caller writes it into the client's file. */
  async mint(owner: { client: string; label: string; file: string }): Promise<{ token: string; info: ClientTokenInfo }> {
    const token = CLIENT_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const info = await this.update((tokens) => {
      let id: string;
      do id = randomBytes(5).toString('hex');
      while (tokens.some((t) => t.id === id));
      const record: StoredToken = { id, client: owner.client, label: owner.label, file: owner.file, created: this.now().toISOString(), hash: hashOf(token) };
      tokens.unshift(record);
      return publicInfo(record);
    });
    log.info(`minted a client token for ${owner.label}`, { id: info.id, file: owner.file });
    return { token, info };
  }

  /** Revokes one token by id (again: no change). Undefined when there is no such id. */
  async revoke(id: string): Promise<ClientTokenInfo | undefined> {
    const info = await this.update((tokens) => {
      const found = tokens.find((t) => t.id === id);
      if (found) found.revoked ??= this.now().toISOString();
      return found && publicInfo(found);
    });
    if (info) log.info(`revoked the client token of ${info.label}`, { id, file: info.file });
    return info;
  }

  /** Revokes this client's tokens for this file except those still written in it (after an export). */
  async retire(client: string, file: string, keep: readonly string[]): Promise<ClientTokenInfo[]> {
    const kept = new Set(keep.map(hashOf));
    if (!this.tokens.some((t) => t.client === client && t.file === file && t.revoked === undefined && !kept.has(t.hash))) return [];
    return this.update((tokens) => {
      const out: ClientTokenInfo[] = [];
      for (const t of tokens) {
        if (t.client !== client || t.file !== file || t.revoked !== undefined || kept.has(t.hash)) continue;
        t.revoked = this.now().toISOString();
        out.push(publicInfo(t));
      }
      return out;
    });
  }

  /** Forgets a token outright: one minted for a write that then failed, so it exists nowhere. */
  async remove(id: string): Promise<void> {
    await this.update((tokens) => {
      const at = tokens.findIndex((t) => t.id === id);
      if (at !== -1) tokens.splice(at, 1);
    });
  }

  /** Reads the file again if it changed (before a decision that must see other processes' changes). */
  async refresh(): Promise<void> {
    const now = await stampOf(this.file);
    if (now !== this.stamp) this.apply(await readStore(this.file), now);
  }

  /** Called after the tokens changed (here or, with `watch`, in another process). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Writes the uses noted since the last flush as `lastUsed`. */
  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.used.size === 0) return;
    const used = new Map(this.used);
    this.used.clear();
    try {
      await this.update((tokens) => {
        for (const t of tokens) {
          const at = used.get(t.id);
          if (at !== undefined && (t.lastUsed === undefined || Date.parse(t.lastUsed) < at)) t.lastUsed = new Date(at).toISOString();
        }
      }, false);
    } catch (err) {
      log.warn(`could not note when client tokens were last used: ${(err as Error).message}`);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watcher?.close();
    clearInterval(this.poll);
    await this.flush();
    await this.queue;
    this.listeners.clear();
  }

  private noteUse(id: string): void {
    this.used.set(id, Date.now());
    if (this.flushTimer || this.closed) return;
    this.flushTimer = setTimeout(() => void this.flush(), this.options.flushMs ?? 60_000);
    this.flushTimer.unref();
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private apply(tokens: StoredToken[], stamp: string, notify = true): void {
    this.tokens = tokens;
    this.byHash = new Map(tokens.map((t) => [t.hash, t]));
    this.stamp = stamp;
    if (notify) for (const listener of this.listeners) listener();
  }

  /**
   * One change of the file: under the lock, from what is on disk now (another process may have
   * changed it), written atomically with mode 0600.
   */
  private update<T>(change: (tokens: StoredToken[]) => T, notify = true): Promise<T> {
    const run = this.queue.then(async () => {
      await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      return storeLock(this.file + '.lock').run(async () => {
        const tokens = await readStore(this.file);
        const result = change(tokens);
        await writeFileAtomic(this.file, render(tokens), { mode: 0o600 });
        this.apply(tokens, await stampOf(this.file), notify);
        return result;
      });
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private changedOnDisk(): boolean {
    try {
      const s = statSync(this.file);
      return `${s.ino}:${s.size}:${s.mtimeMs}` !== this.stamp;
    } catch {
      return this.stamp !== '';
    }
  }

  private reloadSync(): void {
    try {
      const s = statSync(this.file);
      this.apply(parseStore(readFileSync(this.file, 'utf8'), this.file), `${s.ino}:${s.size}:${s.mtimeMs}`);
    } catch (err) {
      if (errCode(err) === 'ENOENT') this.apply([], '');
      else log.warn(`could not reload ${this.file}: ${(err as Error).message} (keeping the tokens read before)`);
    }
  }

  /** The hub: the file is reloaded soon after another process changes it. */
  private follow(): void {
    const reload = (): void => {
      if (this.closed) return;
      this.refresh().catch((err: Error) => log.warn(`could not reload ${this.file}: ${err.message} (keeping the tokens read before)`));
    };
    const name = path.basename(this.file);
    try {
      // The directory, not the file: every write replaces the file by a rename.
      this.watcher = watch(path.dirname(this.file), { persistent: false }, (_event, changed) => {
        if (changed === null || changed === name) reload();
      });
      this.watcher.on('error', () => this.watcher?.close());
    } catch (err) {
      log.debug(`cannot watch ${path.dirname(this.file)}: ${(err as Error).message}; polling only`);
    }
    // Some filesystems (network shares, some containers) never report changes.
    this.poll = setInterval(reload, 2000);
    this.poll.unref();
  }
}

function publicInfo(t: StoredToken): ClientTokenInfo {
  const info: ClientTokenInfo = { id: t.id, client: t.client, label: t.label, file: t.file, created: t.created };
  if (t.lastUsed !== undefined) info.lastUsed = t.lastUsed;
  if (t.revoked !== undefined) info.revoked = t.revoked;
  return info;
}
