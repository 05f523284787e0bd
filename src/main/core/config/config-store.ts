/**
 * The live `config.json`: loaded once, re-read when the file changes on disk, written
 * atomically with a backup. A file that does not validate is reported and never overwritten;
 * until it is fixed, the store keeps serving the last good config.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PatchbayConfig } from '../../../shared/config-schema.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { errCode } from '../fs/err-code.js';
import { createLogger } from '../log/logger.js';
import { deepFreeze, serializeConfig } from './config-format.js';
import { parseConfigText, validateConfigValue, type ConfigProblem } from './config-parse.js';
import { watchFile, type FileWatcher } from './watch-file.js';

// The store's public surface also includes parsing and secret resolution, which live in helpers.
export {
  parseConfigText,
  validateConfigValue,
  formatJsonPath,
  type ConfigProblem,
  type ConfigParseResult,
} from './config-parse.js';
export {
  resolveSecretRefs,
  resolveServerSecrets,
  findSecretRefs,
  SecretResolutionError,
} from './secret-refs.js';

const log = createLogger('config');

export interface ConfigStoreOptions {
  /** Re-read the file when it changes on disk (creates the file's directory if missing). */
  watch?: boolean;
  /** Debounce for change events, in ms. */
  debounceMs?: number;
}

export interface ConfigStoreEvents {
  /** A new valid config (from disk or from `update`). */
  change: [config: PatchbayConfig];
  /** The file on disk became invalid; the config is unchanged. */
  problems: [problems: readonly ConfigProblem[]];
}

export type ConfigMutator = (draft: PatchbayConfig) => PatchbayConfig | void;

export type ConfigErrorCode =
  'config_file_invalid' | 'config_update_invalid' | 'config_store_closed';

/** Our own failure (not a bug): carries a code and a message that says what to do. */
export class ConfigError extends Error {
  constructor(
    readonly code: ConfigErrorCode,
    message: string,
    readonly problems: readonly ConfigProblem[] = [],
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

type DiskState =
  { kind: 'missing' } | { kind: 'text'; text: string } | { kind: 'unreadable'; reason: string };

const DEFAULT_CONFIG_TEXT = '{ "mcpServers": {} }';

export class ConfigStore {
  private config: PatchbayConfig = defaultConfig();
  private currentProblems: readonly ConfigProblem[] = [];
  /** What was last seen on disk, to tell real changes from touches and from our own writes. */
  private seen: DiskState | undefined;
  private watcher: FileWatcher | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly listeners: {
    [E in keyof ConfigStoreEvents]: Set<(...args: ConfigStoreEvents[E]) => void>;
  } = {
    change: new Set(),
    problems: new Set(),
  };

  private constructor(readonly file: string) {}

  /** Load `file` (missing: the default config, not written until the first update). Never throws for bad content. */
  static async open(file: string, options: ConfigStoreOptions = {}): Promise<ConfigStore> {
    const store = new ConfigStore(path.resolve(file));
    await store.sync(false);
    if (options.watch) {
      await mkdir(path.dirname(store.file), { recursive: true, mode: 0o700 });
      store.watcher = watchFile(
        store.file,
        () =>
          void store
            .reload()
            .catch((err: unknown) => log.error('reload failed', { error: String(err) })),
        {
          debounceMs: options.debounceMs ?? 50,
          onError: (err) =>
            log.warn('watching the config file failed', { file: store.file, error: err.message }),
        },
      );
    }
    return store;
  }

  /** The current (last good) config. Frozen: change it through `update`. */
  get(): PatchbayConfig {
    return this.config;
  }

  /** Problems of the file on disk; empty when it is valid (or missing). */
  get problems(): readonly ConfigProblem[] {
    return this.currentProblems;
  }

  on<E extends keyof ConfigStoreEvents>(
    event: E,
    listener: (...args: ConfigStoreEvents[E]) => void,
  ): () => void {
    this.listeners[event].add(listener);
    return () => this.off(event, listener);
  }

  off<E extends keyof ConfigStoreEvents>(
    event: E,
    listener: (...args: ConfigStoreEvents[E]) => void,
  ): void {
    this.listeners[event].delete(listener);
  }

  /** Re-read the file now (the watcher calls this); emits 'change' or 'problems' if it changed. */
  reload(): Promise<void> {
    return this.serialize(() => this.sync(true));
  }

  /**
   * Change the config: `mutator` edits a copy of the file's current content (or returns a new
   * object); the result is validated and written atomically, keeping unknown keys, key order
   * and the file's indentation, with the previous file kept as `<name>.bak`.
   * Rejects with a ConfigError while the file on disk is invalid, or if the result is invalid.
   */
  update(mutator: ConfigMutator): Promise<PatchbayConfig> {
    // Checked at call time: updates queued before close() still run.
    if (this.closed) {
      return Promise.reject(new ConfigError('config_store_closed', 'the config store is closed'));
    }
    return this.serialize(async () => {
      // Start from the disk, not from memory: the watcher may not have seen an edit yet.
      const disk = await this.readDisk();
      this.apply(disk, true);
      if (disk.kind === 'unreadable' || this.currentProblems.length > 0) {
        const list = this.currentProblems.map((p) => `  ${p.path}: ${p.message}`).join('\n');
        throw new ConfigError(
          'config_file_invalid',
          `${this.file} has problems, so Patchbay will not change it (the file was left untouched). Fix it first:\n${list}`,
          this.currentProblems,
        );
      }
      const draft = structuredClone(this.config);
      const next = mutator(draft) ?? draft;
      const checked = validateConfigValue(next, this.file);
      if (!checked.ok) {
        const list = checked.problems.map((p) => `  ${p.path}: ${p.message}`).join('\n');
        throw new ConfigError(
          'config_update_invalid',
          `the change would make the config invalid, so it was not saved:\n${list}`,
          checked.problems,
        );
      }
      const text = serializeConfig(checked.config, disk.kind === 'text' ? disk.text : undefined);
      const before = this.seen;
      // Recorded before the rename so the watcher recognises our own write and stays quiet.
      this.seen = { kind: 'text', text };
      try {
        await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
        // A new file gets 0600 (people paste API keys into env); an existing one keeps its mode.
        await writeFileAtomic(this.file, text, {
          backup: true,
          mode: disk.kind === 'missing' ? 0o600 : undefined,
        });
      } catch (err) {
        this.seen = before;
        throw err;
      }
      this.setConfig(checked.config);
      return this.config;
    });
  }

  /** Stop watching. Pending updates finish first. */
  async close(): Promise<void> {
    this.closed = true;
    this.watcher?.close();
    this.watcher = undefined;
    await this.queue;
  }

  private async sync(emit: boolean): Promise<void> {
    if (this.closed && emit) return;
    this.apply(await this.readDisk(), emit);
  }

  private apply(disk: DiskState, emit: boolean): void {
    if (this.seen && sameDisk(this.seen, disk)) return;
    this.seen = disk;
    if (disk.kind === 'unreadable') {
      this.setProblems([{ path: '$', message: `cannot read the file: ${disk.reason}` }], emit);
      return;
    }
    const result = parseConfigText(
      disk.kind === 'text' ? disk.text : DEFAULT_CONFIG_TEXT,
      this.file,
    );
    if (result.ok) {
      if (disk.kind === 'missing')
        log.info('no config file yet; using an empty config', { file: this.file });
      this.setConfig(result.config, emit);
    } else {
      this.setProblems(result.problems, emit);
    }
  }

  private setConfig(config: PatchbayConfig, emit = true): void {
    this.config = deepFreeze(config);
    this.currentProblems = [];
    if (emit) this.emit('change', this.config);
  }

  private setProblems(problems: readonly ConfigProblem[], emit: boolean): void {
    this.currentProblems = deepFreeze([...problems]);
    // One line here; the problems themselves go to 'problems' listeners and `store.problems`.
    log.warn(`config file has ${problems.length} problem(s); keeping the last good config`, {
      file: this.file,
    });
    if (emit) this.emit('problems', this.currentProblems);
  }

  private emit<E extends keyof ConfigStoreEvents>(event: E, ...args: ConfigStoreEvents[E]): void {
    for (const listener of this.listeners[event]) {
      try {
        listener(...args);
      } catch (err) {
        // One faulty listener must not stop the others or the watcher.
        log.error(`a '${event}' listener threw`, {
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
  }

  private async readDisk(): Promise<DiskState> {
    try {
      return { kind: 'text', text: await readFile(this.file, 'utf8') };
    } catch (err) {
      const code = errCode(err);
      if (code === 'ENOENT') return { kind: 'missing' };
      return { kind: 'unreadable', reason: code ?? String(err) };
    }
  }

  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function defaultConfig(): PatchbayConfig {
  return { mcpServers: {} };
}

function sameDisk(a: DiskState, b: DiskState): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'text' && b.kind === 'text') return a.text === b.text;
  if (a.kind === 'unreadable' && b.kind === 'unreadable') return a.reason === b.reason;
  return true;
}
