import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, scrubText } from '../../core/index.js';
import { FileSecretStore } from '../../core/index.js';
import type { Encryptor } from './encryptor.js';
import { openDesktopSecrets } from './desktop-secrets.js';
import { SafeStorageSecretStore } from './safe-storage-store.js';

/** A real cipher (AES-256-GCM) standing in for the OS keychain: what safeStorage does, minus the keychain. */
function testEncryptor(key: Buffer = randomBytes(32), options: { available?: boolean; backend?: string; reEncrypt?: boolean } = {}): Encryptor & { key: Buffer } {
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
      return { value: Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8'), reEncrypt: options.reEncrypt ?? false };
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

describe('safeStorage secret store', () => {
  it('round-trips values through the encryptor, and nothing readable is on disk', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'secrets.safe.json');
    const encryptor = testEncryptor();
    const store = await SafeStorageSecretStore.open(file, encryptor);
    closers.push(() => store.close());
    await store.set('GITHUB_TOKEN', VALUE);
    await store.set('OTHER', 'x'.repeat(40));
    expect(await store.get('GITHUB_TOKEN')).toBe(VALUE);
    expect(await store.list()).toEqual(['GITHUB_TOKEN', 'OTHER']);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(VALUE);
    expect(text).not.toContain('xxxx');
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);

    // A fresh store with the same key (the next app start) reads them back.
    const again = await SafeStorageSecretStore.open(file, testEncryptor(encryptor.key));
    closers.push(() => again.close());
    expect(await again.get('GITHUB_TOKEN')).toBe(VALUE);
    expect(await again.delete('OTHER')).toBe(true);
    expect(await again.delete('OTHER')).toBe(false);
    expect(await again.list()).toEqual(['GITHUB_TOKEN']);
  });

  it('masks its values in logs, like the file store', async () => {
    const store = await SafeStorageSecretStore.open(path.join(await tempDir(), 's.json'), testEncryptor());
    closers.push(() => store.close());
    await store.set('GITHUB_TOKEN', VALUE);
    expect(scrubText(`upstream said ${VALUE}`)).toBe('upstream said [secret:GITHUB_TOKEN]');
  });

  it('refuses bad names and empty values with the file store codes', async () => {
    const store = await SafeStorageSecretStore.open(path.join(await tempDir(), 's.json'), testEncryptor());
    closers.push(() => store.close());
    await expect(store.set('bad name', 'v')).rejects.toMatchObject({ code: 'secret_name_invalid' });
    await expect(store.set('OK', '')).rejects.toMatchObject({ code: 'secret_value_invalid' });
  });

  it('does not replace a file it cannot decrypt (another keychain key), and says what to do', async () => {
    const file = path.join(await tempDir(), 's.json');
    const first = await SafeStorageSecretStore.open(file, testEncryptor());
    await first.set('A', VALUE);
    await first.close();
    const before = await readFile(file, 'utf8');
    await expect(SafeStorageSecretStore.open(file, testEncryptor())).rejects.toThrow(/cannot decrypt secret 'A'.*keychain/);
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('re-encrypts when the OS rotated its key', async () => {
    const file = path.join(await tempDir(), 's.json');
    const key = randomBytes(32);
    const first = await SafeStorageSecretStore.open(file, testEncryptor(key));
    await first.set('A', VALUE);
    await first.close();
    const before = await readFile(file, 'utf8');
    const rotated = await SafeStorageSecretStore.open(file, testEncryptor(key, { reEncrypt: true }));
    closers.push(() => rotated.close());
    expect(await rotated.get('A')).toBe(VALUE);
    expect(await readFile(file, 'utf8')).not.toBe(before);
  });
});

describe('desktop secrets: choice and migration', () => {
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
    expect(await readFile(path.join(dir, 'secrets.safe.json'), 'utf8')).not.toContain(VALUE);
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
});
