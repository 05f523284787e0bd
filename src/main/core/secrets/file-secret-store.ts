/**
 * The secret store: a JSON file readable by the owner only (mode 0600),
 * `{ "version": 1, "secrets": { NAME: <stored> } }`, written atomically with a backup. What a
 * value looks like at rest is the injected codec's business (secret-codec.ts): the value itself
 * for the CLI and `patchbay serve` (`secrets.json`), OS-keychain encrypted for the desktop app
 * (`secrets.safe.json`). Every value is also registered with the log scrubber, so a secret that
 * slips into a log line shows as `[secret:NAME]`.
 *
 * Checked by hand, not with zod: the relay's `--url` mode and the CLI open this store, and zod
 * alone costs them ~100 ms of start-up.
 */
import { chmod, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { errCode } from '../fs/err-code.js';
import { addLogScrubber, createLogger } from '../log/logger.js';
import { encryptedCodec, plainCodec, type SecretCipher, type SecretCodec } from './secret-codec.js';
import { SecretStoreError } from './secret-store-error.js';
import { SECRET_NAME_PATTERN, type SecretStore } from './secret-store.js';
import { scrubSecrets } from './scrub-secrets.js';

export { SecretStoreError } from './secret-store-error.js';

const log = createLogger('secrets');
const isWindows = process.platform === 'win32';

export interface SecretStoreOptions {
  /** Encrypts every value at rest (the desktop app's OS keychain); without it values are stored as they are. */
  cipher?: SecretCipher;
}

export class FileSecretStore implements SecretStore {
  /** Last known contents; the scrubber reads it synchronously. */
  private secrets = new Map<string, string>();
  /** Identity of the file last read (inode, size, times); undefined: read it again. */
  private stamp: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private unregisterScrubber: (() => void) | undefined;

  private constructor(
    readonly file: string,
    private readonly codec: SecretCodec,
  ) {}

  /**
   * Open (not create) the store: a missing file is an empty store, written on the first `set`.
   * A file readable by others is warned about and narrowed to 0600. An unreadable, corrupt or
   * undecryptable file is an error, never silently replaced (that would lose every secret).
   */
  static async open(file: string, options: SecretStoreOptions = {}): Promise<FileSecretStore> {
    const store = new FileSecretStore(path.resolve(file), options.cipher ? encryptedCodec(options.cipher) : plainCodec);
    await store.fixMode();
    await store.refresh();
    store.unregisterScrubber = addLogScrubber((text) => store.scrub(text));
    return store;
  }

  /** True when values are encrypted at rest. */
  get encrypted(): boolean {
    return this.codec.encrypted;
  }

  async get(name: string): Promise<string | undefined> {
    // Checked each time: `patchbay secrets set` in another process must reach a running engine.
    await this.serialize(() => this.refresh());
    return this.secrets.get(name);
  }

  async list(): Promise<string[]> {
    await this.serialize(() => this.refresh());
    return [...this.secrets.keys()].sort();
  }

  async set(name: string, value: string): Promise<void> {
    return this.setMany([[name, value]]);
  }

  /** Several values in one write (the desktop's migration from the plain file). */
  async setMany(entries: ReadonlyArray<readonly [string, string]>): Promise<void> {
    for (const [name, value] of entries) {
      checkName(name);
      if (typeof value !== 'string' || value === '') {
        throw new SecretStoreError('secret_value_invalid', `refusing to store an empty value for secret '${name}'`);
      }
    }
    // Serialized: concurrent sets each re-read and write the whole file, so none is lost.
    return this.serialize(async () => {
      await this.refresh();
      const next = new Map(this.secrets);
      for (const [name, value] of entries) next.set(name, value);
      await this.save(next);
    });
  }

  async delete(name: string): Promise<boolean> {
    checkName(name);
    return this.serialize(async () => {
      await this.refresh();
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

  /** Reads the file again when it changed since the last read (decrypting costs a keychain call per value). */
  private async refresh(): Promise<void> {
    const stamp = await fileStamp(this.file);
    if (stamp !== undefined && stamp === this.stamp) return;
    const { values, reEncode } = await this.read();
    this.secrets = values;
    this.stamp = stamp;
    if (reEncode) await this.save(values);
  }

  private async read(): Promise<{ values: Map<string, string>; reEncode: boolean }> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if (errCode(err) === 'ENOENT') return { values: new Map(), reEncode: false };
      throw err;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON.parse's message: it quotes part of the file, i.e. a secret.
      throw new SecretStoreError('secret_file_invalid', `${this.file} is not valid JSON; fix or remove it (a backup may be at ${this.file}.bak)`);
    }
    const stored = storedSecrets(parsed, this.codec);
    if (!stored) {
      throw new SecretStoreError('secret_file_invalid', `${this.file} is not ${this.codec.format}; fix or remove it (a backup may be at ${this.file}.bak)`);
    }
    const values = new Map<string, string>();
    let reEncode = false;
    for (const [name, value] of Object.entries(stored)) {
      const decoded = await this.codec.decode(value, name, this.file);
      values.set(name, decoded.value);
      reEncode ||= decoded.reEncode;
    }
    return { values, reEncode };
  }

  private async save(next: Map<string, string>): Promise<void> {
    const secrets: Record<string, string> = {};
    for (const [name, value] of next) secrets[name] = await this.codec.encode(value);
    await writeFileAtomic(this.file, JSON.stringify({ version: 1, secrets }, null, 2) + '\n', { mode: 0o600, backup: true });
    this.secrets = next;
    // Read back on the next use: another process may have written right after this rename.
    this.stamp = undefined;
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
      log.warn(`secret file was readable by others (mode ${mode.toString(8).padStart(4, '0')}); restricting it to 0600`, { file: this.file });
      await chmod(this.file, 0o600);
    }
  }

  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** `{"version": 1, "secrets": {"NAME": <stored>}}` with every stored string one the codec accepts. */
function storedSecrets(value: unknown, codec: SecretCodec): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { version, secrets } = value as { version?: unknown; secrets?: unknown };
  if (version !== 1 || typeof secrets !== 'object' || secrets === null || Array.isArray(secrets)) return undefined;
  for (const v of Object.values(secrets)) if (typeof v !== 'string' || !codec.accepts(v)) return undefined;
  return secrets as Record<string, string>;
}

/** The file's identity: an atomic write (rename) changes the inode, an edit in place the size or times. */
async function fileStamp(file: string): Promise<string | undefined> {
  try {
    const s = await stat(file, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch (err) {
    if (errCode(err) === 'ENOENT') return 'missing';
    return undefined;
  }
}

function checkName(name: string): void {
  if (typeof name !== 'string' || !SECRET_NAME_PATTERN.test(name)) {
    throw new SecretStoreError('secret_name_invalid', 'invalid secret name: use 1-128 letters, digits, "_", "-" or "."');
  }
}
