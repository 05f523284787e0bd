/**
 * The secret store of the CLI and the headless shell: a JSON file readable by the owner only
 * (mode 0600), `{ "version": 1, "secrets": { NAME: value } }`. Every stored value is also
 * registered with the log scrubber, so a secret that slips into a log line shows as `[secret:NAME]`.
 */
import { chmod, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { errCode } from '../fs/err-code.js';
import { scrubSecrets } from './scrub-secrets.js';
import { addLogScrubber, createLogger } from '../log/logger.js';
import { SECRET_NAME_PATTERN, type SecretStore } from './secret-store.js';

const log = createLogger('secrets');

/**
 * `{"version": 1, "secrets": {"NAME": "value"}}`. Checked by hand, not with zod: the relay's
 * `--url` mode and the CLI open this store, and zod alone costs them ~100 ms of start-up.
 */
function secretsOf(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { version, secrets } = value as { version?: unknown; secrets?: unknown };
  if (version !== 1 || typeof secrets !== 'object' || secrets === null || Array.isArray(secrets)) return undefined;
  for (const v of Object.values(secrets)) if (typeof v !== 'string') return undefined;
  return secrets as Record<string, string>;
}

/** Shorter values would mask ordinary words and numbers all over the logs. */
const isWindows = process.platform === 'win32';

export class SecretStoreError extends Error {
  constructor(
    readonly code: 'secret_name_invalid' | 'secret_value_invalid' | 'secret_file_invalid',
    message: string,
  ) {
    super(message);
    this.name = 'SecretStoreError';
  }
}

export class FileSecretStore implements SecretStore {
  /** Last known contents; the scrubber reads it synchronously. */
  private secrets = new Map<string, string>();
  private queue: Promise<unknown> = Promise.resolve();
  private unregisterScrubber: (() => void) | undefined;

  private constructor(readonly file: string) {}

  /**
   * Open (not create) the store: a missing file is an empty store, written on the first `set`.
   * A file readable by others is warned about and narrowed to 0600. An unreadable or corrupt
   * file is an error, never silently replaced (that would lose every secret).
   */
  static async open(file: string): Promise<FileSecretStore> {
    const store = new FileSecretStore(path.resolve(file));
    await store.fixMode();
    await store.load();
    store.unregisterScrubber = addLogScrubber((text) => store.scrub(text));
    return store;
  }

  async get(name: string): Promise<string | undefined> {
    // Re-read each time: `patchbay secrets set` in another process must reach a running engine.
    await this.serialize(() => this.load());
    return this.secrets.get(name);
  }

  async list(): Promise<string[]> {
    await this.serialize(() => this.load());
    return [...this.secrets.keys()].sort();
  }

  async set(name: string, value: string): Promise<void> {
    checkName(name);
    if (typeof value !== 'string' || value === '') {
      throw new SecretStoreError(
        'secret_value_invalid',
        `refusing to store an empty value for secret '${name}'`,
      );
    }
    // Serialized: concurrent sets each re-read and write the whole file, so none is lost.
    return this.serialize(async () => {
      await this.load();
      const next = new Map(this.secrets);
      next.set(name, value);
      await this.save(next);
    });
  }

  async delete(name: string): Promise<boolean> {
    checkName(name);
    return this.serialize(async () => {
      await this.load();
      if (!this.secrets.has(name)) return false;
      const next = new Map(this.secrets);
      next.delete(name);
      await this.save(next);
      return true;
    });
  }

  /** Stop masking this store's values in logs (after the last use). */
  async close(): Promise<void> {
    await this.queue;
    this.unregisterScrubber?.();
    this.unregisterScrubber = undefined;
  }

  /** Mask every known value (see scrubSecrets). */
  scrub(text: string): string {
    return scrubSecrets(this.secrets, text);
  }

  private async load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if (errCode(err) === 'ENOENT') {
        this.secrets = new Map();
        return;
      }
      throw err;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON.parse's message: it quotes part of the file, i.e. a secret.
      throw new SecretStoreError(
        'secret_file_invalid',
        `${this.file} is not valid JSON; fix or remove it (a backup may be at ${this.file}.bak)`,
      );
    }
    const secrets = secretsOf(parsed);
    if (!secrets) {
      throw new SecretStoreError(
        'secret_file_invalid',
        `${this.file} is not a Patchbay secret file (expected {"version": 1, "secrets": {"NAME": "value"}}); fix or remove it`,
      );
    }
    this.secrets = new Map(Object.entries(secrets));
  }

  private async save(next: Map<string, string>): Promise<void> {
    const body = { version: 1, secrets: Object.fromEntries(next) };
    await writeFileAtomic(this.file, JSON.stringify(body, null, 2) + '\n', {
      mode: 0o600,
      backup: true,
    });
    this.secrets = next;
  }

  private async fixMode(): Promise<void> {
    if (isWindows) return; // NTFS ACLs, not mode bits, protect the profile folder.
    let mode: number;
    try {
      mode = (await stat(this.file)).mode & 0o777;
    } catch (err) {
      if (errCode(err) === 'ENOENT') return;
      throw err;
    }
    if ((mode & 0o077) !== 0) {
      log.warn(
        `secret file was readable by others (mode ${mode.toString(8).padStart(4, '0')}); restricting it to 0600`,
        { file: this.file },
      );
      await chmod(this.file, 0o600);
    }
  }

  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function checkName(name: string): void {
  if (typeof name !== 'string' || !SECRET_NAME_PATTERN.test(name)) {
    throw new SecretStoreError(
      'secret_name_invalid',
      'invalid secret name: use 1-128 letters, digits, "_", "-" or "."',
    );
  }
}
