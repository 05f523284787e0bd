/**
 * The desktop app's secret store: values encrypted with the OS keychain's key (Electron
 * safeStorage) in `<data dir>/secrets.safe.json`, `{ "version": 1, "secrets": { NAME: base64 } }`,
 * written atomically with mode 0600. The engine takes it through the same `SecretStore`
 * interface as the 0600 file store. Every value is registered with the log scrubber, as there.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../core/index.js';
import { errCode } from '../../core/index.js';
import { addLogScrubber } from '../../core/index.js';
import { SecretStoreError } from '../../core/index.js';
import { scrubSecrets } from '../../core/index.js';
import { SECRET_NAME_PATTERN, type SecretStore } from '../../core/index.js';
import type { Encryptor } from './encryptor.js';

export const SAFE_SECRETS_FILE = 'secrets.safe.json';

const fileSchema = z.object({
  version: z.literal(1),
  secrets: z.record(z.string(), z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/)),
});

/** Shorter values would mask ordinary words all over the logs (same rule as the file store). */

export class SafeStorageSecretStore implements SecretStore {
  /** Decrypted values, kept in memory: the scrubber runs synchronously on every log line. */
  private values = new Map<string, string>();
  private queue: Promise<unknown> = Promise.resolve();
  private unregisterScrubber: (() => void) | undefined;

  private constructor(
    readonly file: string,
    private readonly encryptor: Encryptor,
  ) {}

  /** Opens (a missing file is an empty store); a file that cannot be decrypted is an error, never replaced. */
  static async open(file: string, encryptor: Encryptor): Promise<SafeStorageSecretStore> {
    const store = new SafeStorageSecretStore(path.resolve(file), encryptor);
    const reEncrypt = await store.load();
    if (reEncrypt) await store.save(store.values);
    store.unregisterScrubber = addLogScrubber((text) => store.scrub(text));
    return store;
  }

  async get(name: string): Promise<string | undefined> {
    await this.queue;
    return this.values.get(name);
  }

  async list(): Promise<string[]> {
    await this.queue;
    return [...this.values.keys()].sort();
  }

  async set(name: string, value: string): Promise<void> {
    checkName(name);
    if (typeof value !== 'string' || value === '') {
      throw new SecretStoreError('secret_value_invalid', `refusing to store an empty value for secret '${name}'`);
    }
    return this.serialize(async () => {
      const next = new Map(this.values);
      next.set(name, value);
      await this.save(next);
    });
  }

  /** Several values in one write (the migration from the file store). */
  async setMany(entries: ReadonlyArray<readonly [string, string]>): Promise<void> {
    for (const [name, value] of entries) {
      checkName(name);
      if (value === '') throw new SecretStoreError('secret_value_invalid', `refusing to store an empty value for secret '${name}'`);
    }
    return this.serialize(async () => {
      const next = new Map(this.values);
      for (const [name, value] of entries) next.set(name, value);
      await this.save(next);
    });
  }

  async delete(name: string): Promise<boolean> {
    checkName(name);
    return this.serialize(async () => {
      if (!this.values.has(name)) return false;
      const next = new Map(this.values);
      next.delete(name);
      await this.save(next);
      return true;
    });
  }

  async close(): Promise<void> {
    await this.queue;
    this.unregisterScrubber?.();
    this.unregisterScrubber = undefined;
  }

  scrub(text: string): string {
    return scrubSecrets(this.values, text);
  }

  /** Reads and decrypts the file; true when the OS asks for values to be encrypted again. */
  private async load(): Promise<boolean> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if (errCode(err) === 'ENOENT') return false;
      throw err;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new SecretStoreError('secret_file_invalid', `${this.file} is not valid JSON; fix or remove it (a backup may be at ${this.file}.bak)`);
    }
    const result = fileSchema.safeParse(parsed);
    if (!result.success) {
      throw new SecretStoreError('secret_file_invalid', `${this.file} is not a Patchbay encrypted secret file; fix or remove it (a backup may be at ${this.file}.bak)`);
    }
    const values = new Map<string, string>();
    let reEncrypt = false;
    for (const [name, encoded] of Object.entries(result.data.secrets)) {
      try {
        const plain = await this.encryptor.decrypt(Buffer.from(encoded, 'base64'));
        values.set(name, plain.value);
        reEncrypt ||= plain.reEncrypt;
      } catch {
        throw new SecretStoreError(
          'secret_file_invalid',
          `cannot decrypt secret '${name}' in ${this.file}: the OS keychain key for Patchbay changed or is missing. Restore the keychain entry, or remove the file and enter the keys again`,
        );
      }
    }
    this.values = values;
    return reEncrypt;
  }

  private async save(next: Map<string, string>): Promise<void> {
    const secrets: Record<string, string> = {};
    for (const [name, value] of next) secrets[name] = (await this.encryptor.encrypt(value)).toString('base64');
    await writeFileAtomic(this.file, JSON.stringify({ version: 1, secrets }, null, 2) + '\n', { mode: 0o600, backup: true });
    this.values = next;
  }

  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function checkName(name: string): void {
  if (typeof name !== 'string' || !SECRET_NAME_PATTERN.test(name)) {
    throw new SecretStoreError('secret_name_invalid', 'invalid secret name: use 1-128 letters, digits, "_", "-" or "."');
  }
}
