/**
 * Moving secrets from the 0600 file store (`secrets.json`, what the CLI and `patchbay serve`
 * write) into the encrypted store. On the app's first run this is the migration; later, a
 * `patchbay secrets set` run while the app is installed writes `secrets.json` again, and the
 * next read absorbs it — so the plaintext file never outlives a read by the app. A value is only
 * removed from the plaintext file after it was read back from the encrypted store.
 */
import { rm, stat } from 'node:fs/promises';
import { errCode, FileSecretStore } from '../../core/index.js';
import type { Logger, SecretStore } from '../../core/index.js';

/** Imports every secret of the file store (its values win: the file is newer than the last import), then deletes the file and its backup. */
export async function absorbFileStore(secretsFile: string, target: FileSecretStore, logger: Logger): Promise<string[]> {
  if (!(await exists(secretsFile))) return [];
  const source = await FileSecretStore.open(secretsFile);
  try {
    const names = await source.list();
    const entries: Array<[string, string]> = [];
    for (const name of names) {
      const value = await source.get(name);
      if (value !== undefined && value !== '') entries.push([name, value]);
    }
    await target.setMany(entries);
    for (const [name, value] of entries) {
      if ((await target.get(name)) !== value) {
        throw new Error(`secret '${name}' did not read back from the encrypted store; ${secretsFile} was kept`);
      }
    }
    await rm(secretsFile, { force: true });
    await rm(`${secretsFile}.bak`, { force: true });
    logger.info(`moved ${entries.length} secret(s) from ${secretsFile} into the encrypted store`, { names: entries.map(([n]) => n) });
    return entries.map(([n]) => n);
  } finally {
    await source.close();
  }
}

/** The encrypted store, absorbing `secrets.json` whenever one appears (checked before each use). */
export class AbsorbingSecretStore implements SecretStore {
  private pending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly target: FileSecretStore,
    private readonly secretsFile: string,
    private readonly logger: Logger,
  ) {}

  async get(name: string): Promise<string | undefined> {
    await this.absorb();
    return this.target.get(name);
  }

  async list(): Promise<string[]> {
    await this.absorb();
    return this.target.list();
  }

  async set(name: string, value: string): Promise<void> {
    await this.absorb();
    return this.target.set(name, value);
  }

  async delete(name: string): Promise<boolean> {
    await this.absorb();
    return this.target.delete(name);
  }

  close(): Promise<void> {
    return this.target.close();
  }

  /** One absorption at a time; a failed one is logged and the encrypted store still answers. */
  absorb(): Promise<void> {
    const run = this.pending.then(() => absorbFileStore(this.secretsFile, this.target, this.logger));
    this.pending = run.catch(() => undefined);
    return run.then(
      () => undefined,
      (err: Error) => this.logger.error(`could not move ${this.secretsFile} into the encrypted store: ${err.message}`),
    );
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (err) {
    if (errCode(err) === 'ENOENT') return false;
    throw err;
  }
}
