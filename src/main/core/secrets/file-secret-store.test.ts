/**
 * The one secret store, with both codecs: plain (`secrets.json`, the CLI's) and encrypted through
 * an injected cipher (`secrets.safe.json`, the desktop's OS keychain). The cipher here is real
 * AES-256-GCM standing in for Electron's safeStorage: what safeStorage does, minus the keychain.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, scrubText, setLogSink, type LogRecord } from '../log/logger.js';
import { FileSecretStore, type SecretStoreOptions } from './file-secret-store.js';
import type { SecretCipher } from './secret-codec.js';
import { skipNote } from '../../../../test/helpers/skip-note.js';

const posix = process.platform !== 'win32';
let dir: string;
let file: string;
let records: LogRecord[];
const stores: FileSecretStore[] = [];

type TestCipher = SecretCipher & { key: Buffer; decrypts: number };

function aesCipher(key: Buffer = randomBytes(32), options: { reEncrypt?: boolean } = {}): TestCipher {
  const cipher: TestCipher = {
    key,
    decrypts: 0,
    encrypt: async (plain) => {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    decrypt: async (data) => {
      cipher.decrypts++;
      const d = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      d.setAuthTag(data.subarray(12, 28));
      return { value: Buffer.concat([d.update(data.subarray(28)), d.final()]).toString('utf8'), reEncrypt: options.reEncrypt ?? false };
    },
  };
  return cipher;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pb-secrets-'));
  file = path.join(dir, 'secrets.json');
  records = [];
  setLogSink((r) => records.push(r));
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  setLogSink(undefined);
  await rm(dir, { recursive: true, force: true });
});

const CODECS: Array<{ name: string; options: () => SecretStoreOptions }> = [
  { name: 'plain', options: () => ({}) },
  // One key per test, shared by every store the test opens (the same keychain).
  { name: 'encrypted', options: () => sharedCipher() },
];
let currentCipher: TestCipher | undefined;
beforeEach(() => {
  currentCipher = undefined;
});
function sharedCipher(): SecretStoreOptions {
  currentCipher ??= aesCipher();
  return { cipher: currentCipher };
}

for (const codec of CODECS) {
  describe(`FileSecretStore (${codec.name})`, () => {
    const open = async (): Promise<FileSecretStore> => {
      const store = await FileSecretStore.open(file, codec.options());
      stores.push(store);
      return store;
    };

    it('starts empty without creating the file, then stores, lists and deletes', async () => {
      const store = await open();
      expect(store.encrypted).toBe(codec.name === 'encrypted');
      expect(await store.list()).toEqual([]);
      await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });

      await store.set('B_KEY', 'bee');
      await store.set('A_KEY', 'ay');
      expect(await store.get('A_KEY')).toBe('ay');
      expect(await store.get('NOPE')).toBeUndefined();
      expect(await store.list()).toEqual(['A_KEY', 'B_KEY']);
      expect(Object.keys(JSON.parse(await readFile(file, 'utf8')).secrets)).toEqual(['B_KEY', 'A_KEY']);

      expect(await store.delete('B_KEY')).toBe(true);
      expect(await store.delete('B_KEY')).toBe(false);
      expect(await store.list()).toEqual(['A_KEY']);
    });

    it.skipIf(!posix)(skipNote(!posix, 'writes the file (and its backup) with mode 0600', 'file modes are POSIX (Windows has ACLs)'), async () => {
      const store = await open();
      await store.set('A', 'one');
      await store.set('A', 'two');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(`${file}.bak`)).mode & 0o777).toBe(0o600);
    });

    it.skipIf(!posix)(skipNote(!posix, 'narrows a file that others could read to 0600, with a warning', 'file modes are POSIX (Windows has ACLs)'), async () => {
      const writer = await open();
      await writer.set('A', 'value-a');
      await chmod(file, 0o644);
      const store = await open();
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(records.some((r) => r.level === 'warn' && r.message.includes('readable by others'))).toBe(true);
      expect(await store.get('A')).toBe('value-a');
    });

    it('validates names and refuses empty values', async () => {
      const store = await open();
      await expect(store.set('bad name', 'x')).rejects.toMatchObject({ code: 'secret_name_invalid' });
      await expect(store.set('', 'x')).rejects.toMatchObject({ code: 'secret_name_invalid' });
      await expect(store.set('OK', '')).rejects.toMatchObject({ code: 'secret_value_invalid' });
      await expect(store.delete('a/b')).rejects.toMatchObject({ code: 'secret_name_invalid' });
      await expect(store.setMany([['GOOD', 'v'], ['BAD NAME', 'v']])).rejects.toMatchObject({ code: 'secret_name_invalid' });
      expect(await store.list()).toEqual([]);
    });

    it('refuses a corrupt file without quoting it and without replacing it', async () => {
      await writeFile(file, '{"version": 1, "secrets": {"A": "sk-live-abc"');
      await expect(FileSecretStore.open(file, codec.options())).rejects.toMatchObject({ code: 'secret_file_invalid' });
      await expect(FileSecretStore.open(file, codec.options())).rejects.not.toThrow(/sk-live/);
      await writeFile(file, JSON.stringify({ version: 2, secrets: {} }));
      await expect(FileSecretStore.open(file, codec.options())).rejects.toThrow(/is not a Patchbay (encrypted )?secret file/);
      expect(await readFile(file, 'utf8')).toBe(JSON.stringify({ version: 2, secrets: {} }));
    });

    it('loses no write when sets run concurrently', async () => {
      const store = await open();
      await Promise.all(Array.from({ length: 25 }, (_, i) => store.set(`K${i}`, `value-${i}`)));
      expect(await store.list()).toHaveLength(25);
      expect(Object.keys(JSON.parse(await readFile(file, 'utf8')).secrets)).toHaveLength(25);
    });

    it('sees writes made by another store on the same file (another process)', async () => {
      const engine = await open();
      const cli = await open();
      expect(await engine.list()).toEqual([]);
      await cli.set('NEW', 'fresh-value');
      expect(await engine.get('NEW')).toBe('fresh-value');
      await cli.delete('NEW');
      expect(await engine.list()).toEqual([]);
    });

    it('masks every stored value of 4+ characters in log output', async () => {
      const store = await open();
      await store.set('API_KEY', 'sk-abc123');
      await store.set('LONGER', 'sk-abc123-and-more');
      await store.set('QUOTED', 'pa"ss\\word');
      await store.set('PIN', '123');
      createLogger('test').error('upstream said sk-abc123-and-more then sk-abc123; pin 123', { header: 'Bearer pa"ss\\word' });
      const line = JSON.stringify(records.at(-1));
      expect(line).toContain('[secret:LONGER] then [secret:API_KEY]; pin 123');
      expect(line).toContain('Bearer [secret:QUOTED]');
      expect(line).not.toContain('sk-abc');
      expect(line).not.toContain('ss\\\\word');
    });

    it('stops masking after close', async () => {
      const store = await FileSecretStore.open(file, codec.options());
      await store.set('GONE', 'value-gone');
      expect(scrubText('value-gone')).toBe('[secret:GONE]');
      await store.close();
      expect(scrubText('value-gone')).toBe('value-gone');
    });
  });
}

describe('plain codec', () => {
  it('reads and writes the secrets.json format earlier versions wrote', async () => {
    await writeFile(file, '{\n  "version": 1,\n  "secrets": {\n    "OLD": "old-value"\n  }\n}\n', { mode: 0o600 });
    const store = await FileSecretStore.open(file);
    stores.push(store);
    expect(await store.get('OLD')).toBe('old-value');
    await store.set('NEW', 'new-value');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ version: 1, secrets: { OLD: 'old-value', NEW: 'new-value' } });
  });
});

describe('encrypted codec', () => {
  const VALUE = 'ghp_live_0123456789abcdefSECRET';

  it('keeps nothing readable on disk, and a later store with the same key reads it back', async () => {
    const cipher = aesCipher();
    const store = await FileSecretStore.open(file, { cipher });
    stores.push(store);
    await store.set('GITHUB_TOKEN', VALUE);
    await store.set('OTHER', 'x'.repeat(40));
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(VALUE);
    expect(text).not.toContain('xxxx');
    const again = await FileSecretStore.open(file, { cipher: aesCipher(cipher.key) });
    stores.push(again);
    expect(await again.get('GITHUB_TOKEN')).toBe(VALUE);
    expect(await again.list()).toEqual(['GITHUB_TOKEN', 'OTHER']);
  });

  it('reads the secrets.safe.json format earlier versions wrote (base64 of the encrypted value)', async () => {
    const cipher = aesCipher();
    const stored = Buffer.from(await cipher.encrypt(VALUE)).toString('base64');
    await writeFile(file, JSON.stringify({ version: 1, secrets: { A: stored } }, null, 2) + '\n', { mode: 0o600 });
    const store = await FileSecretStore.open(file, { cipher: aesCipher(cipher.key) });
    stores.push(store);
    expect(await store.get('A')).toBe(VALUE);
  });

  it('decrypts once per change of the file, not on every read', async () => {
    const cipher = aesCipher();
    const store = await FileSecretStore.open(file, { cipher });
    stores.push(store);
    await store.set('A', VALUE);
    await store.get('A');
    const after = cipher.decrypts;
    for (let i = 0; i < 5; i++) expect(await store.get('A')).toBe(VALUE);
    expect(cipher.decrypts).toBe(after);
  });

  it('does not replace a file it cannot decrypt (another keychain key), and says what to do', async () => {
    const first = await FileSecretStore.open(file, { cipher: aesCipher() });
    await first.set('A', VALUE);
    await first.close();
    const before = await readFile(file, 'utf8');
    const opening = FileSecretStore.open(file, { cipher: aesCipher() });
    await expect(opening).rejects.toMatchObject({ code: 'secret_file_undecryptable' });
    await expect(FileSecretStore.open(file, { cipher: aesCipher() })).rejects.toThrow(/cannot decrypt secret 'A'.*keychain/);
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('refuses a plain file as an encrypted one (values that are not base64)', async () => {
    await writeFile(file, JSON.stringify({ version: 1, secrets: { A: 'not base64!' } }));
    await expect(FileSecretStore.open(file, { cipher: aesCipher() })).rejects.toThrow(/not a Patchbay encrypted secret file/);
  });

  it('re-encrypts when the OS rotated its key', async () => {
    const key = randomBytes(32);
    const first = await FileSecretStore.open(file, { cipher: aesCipher(key) });
    await first.set('A', VALUE);
    await first.close();
    const before = await readFile(file, 'utf8');
    const rotated = await FileSecretStore.open(file, { cipher: aesCipher(key, { reEncrypt: true }) });
    stores.push(rotated);
    expect(await rotated.get('A')).toBe(VALUE);
    expect(await readFile(file, 'utf8')).not.toBe(before);
  });
});
