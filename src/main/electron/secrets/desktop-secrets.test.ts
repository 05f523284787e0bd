/**
 * The desktop's choice of secret store and the migration from the CLI's plaintext file. The store
 * itself (both codecs) is tested in src/main/core/secrets/file-secret-store.test.ts; the
 * encryptor here is real AES-256-GCM standing in for safeStorage (the OS keychain).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, FileSecretStore } from '../../core/index.js';
import { openDesktopSecrets, safeSecretsFile, setAsideSecrets } from './desktop-secrets.js';
import type { Encryptor } from './encryptor.js';

function testEncryptor(key: Buffer = randomBytes(32), options: { available?: boolean; backend?: string } = {}): Encryptor & { key: Buffer } {
  return {
    key,
    available: async () => options.available ?? true,
    encrypt: async (plain) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decrypt: async (data) => {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return { value: Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8'), reEncrypt: false };
    },
    ...(options.backend !== undefined ? { backend: () => options.backend! } : {}),
  };
}

const dirs: string[] = [];
const closers: Array<() => Promise<void>> = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-safe-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const logger = createLogger('test');
const VALUE = 'ghp_live_0123456789abcdefSECRET';

describe('desktop secrets: choice and migration', () => {
  it('uses the encrypted store: values round-trip, nothing readable on disk', async () => {
    const dir = await tempDir();
    const encryptor = testEncryptor();
    const secrets = await openDesktopSecrets({ dataDir: dir, encryptor, logger });
    closers.push(() => secrets.store.close());
    expect(secrets.kind).toBe('encrypted');
    await secrets.store.set('GITHUB_TOKEN', VALUE);
    expect(await secrets.store.get('GITHUB_TOKEN')).toBe(VALUE);
    expect(await readFile(safeSecretsFile(dir), 'utf8')).not.toContain(VALUE);
    const again = await FileSecretStore.open(safeSecretsFile(dir), { cipher: testEncryptor(encryptor.key) });
    closers.push(() => again.close());
    expect(await again.get('GITHUB_TOKEN')).toBe(VALUE);
  });

  it('moves an existing file store into the encrypted store on first run and removes the plaintext', async () => {
    const dir = await tempDir();
    const plain = await FileSecretStore.open(path.join(dir, 'secrets.json'));
    await plain.set('GITHUB_TOKEN', VALUE);
    await plain.set('API_KEY', 'k-123456');
    await plain.set('API_KEY', 'k-654321'); // leaves secrets.json.bak behind, plaintext too
    await plain.close();
    const secrets = await openDesktopSecrets({ dataDir: dir, encryptor: testEncryptor(), logger });
    closers.push(() => secrets.store.close());
    expect(secrets.kind).toBe('encrypted');
    expect(await secrets.store.list()).toEqual(['API_KEY', 'GITHUB_TOKEN']);
    expect(await secrets.store.get('API_KEY')).toBe('k-654321');
    await expect(stat(path.join(dir, 'secrets.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stat(path.join(dir, 'secrets.json.bak'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(safeSecretsFile(dir), 'utf8')).not.toContain(VALUE);
  });

  it('absorbs a secret the CLI wrote while the app runs', async () => {
    const dir = await tempDir();
    const secrets = await openDesktopSecrets({ dataDir: dir, encryptor: testEncryptor(), logger });
    closers.push(() => secrets.store.close());
    await secrets.store.set('KEPT', 'kept-value');
    const cli = await FileSecretStore.open(path.join(dir, 'secrets.json'));
    await cli.set('NEW', 'from-the-cli');
    await cli.close();
    expect(await secrets.store.get('NEW')).toBe('from-the-cli');
    expect(await secrets.store.list()).toEqual(['KEPT', 'NEW']);
    await expect(stat(path.join(dir, 'secrets.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps the 0600 file store where the OS has no real keychain', async () => {
    for (const encryptor of [testEncryptor(undefined, { available: false }), testEncryptor(undefined, { backend: 'basic_text' })]) {
      const dir = await tempDir();
      const secrets = await openDesktopSecrets({ dataDir: dir, encryptor, logger });
      closers.push(() => secrets.store.close());
      expect(secrets.kind).toBe('file');
      await secrets.store.set('A', VALUE);
      expect(JSON.parse(await readFile(path.join(dir, 'secrets.json'), 'utf8'))).toEqual({ version: 1, secrets: { A: VALUE } });
    }
  });

  it('keeps secrets.json when the encrypted store cannot take it', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'secrets.json'), JSON.stringify({ version: 1, secrets: { A: VALUE } }), { mode: 0o600 });
    const failing = testEncryptor();
    failing.encrypt = async () => {
      throw new Error('keychain locked');
    };
    const secrets = await openDesktopSecrets({ dataDir: dir, encryptor: failing, logger });
    closers.push(() => secrets.store.close());
    expect(JSON.parse(await readFile(path.join(dir, 'secrets.json'), 'utf8')).secrets.A).toBe(VALUE);
  });

  it('a changed keychain key fails the opening with its code; setting the file aside keeps it and lets the app start empty', async () => {
    const dir = await tempDir();
    const first = await openDesktopSecrets({ dataDir: dir, encryptor: testEncryptor(), logger });
    await first.store.set('A', VALUE);
    await first.store.set('A', `${VALUE}-2`);
    await first.store.close();
    await expect(openDesktopSecrets({ dataDir: dir, encryptor: testEncryptor(), logger })).rejects.toMatchObject({ code: 'secret_file_undecryptable' });
    const aside = await setAsideSecrets(dir, new Date('2025-01-02T03:04:05.678Z'));
    expect(path.basename(aside)).toBe('secrets.safe.json.unreadable-2025-01-02T03-04-05-678Z');
    expect((await readdir(dir)).sort()).toEqual([path.basename(aside), `${path.basename(aside)}.bak`]);
    const fresh = await openDesktopSecrets({ dataDir: dir, encryptor: testEncryptor(), logger });
    closers.push(() => fresh.store.close());
    expect(await fresh.store.list()).toEqual([]);
  });
});
