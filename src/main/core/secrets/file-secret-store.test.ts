import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, scrubText, setLogSink, type LogRecord } from '../log/logger.js';
import { FileSecretStore } from './file-secret-store.js';

const posix = process.platform !== 'win32';
let dir: string;
let file: string;
let records: LogRecord[];
const stores: FileSecretStore[] = [];

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

async function open(): Promise<FileSecretStore> {
  const store = await FileSecretStore.open(file);
  stores.push(store);
  return store;
}

describe('FileSecretStore', () => {
  it('starts empty without creating the file, then stores, lists and deletes', async () => {
    const store = await open();
    expect(await store.list()).toEqual([]);
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });

    await store.set('B_KEY', 'bee');
    await store.set('A_KEY', 'ay');
    expect(await store.get('A_KEY')).toBe('ay');
    expect(await store.get('NOPE')).toBeUndefined();
    expect(await store.list()).toEqual(['A_KEY', 'B_KEY']);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      version: 1,
      secrets: { B_KEY: 'bee', A_KEY: 'ay' },
    });

    expect(await store.delete('B_KEY')).toBe(true);
    expect(await store.delete('B_KEY')).toBe(false);
    expect(await store.list()).toEqual(['A_KEY']);
  });

  it.skipIf(!posix)('writes the file (and its backup) with mode 0600', async () => {
    const store = await open();
    await store.set('A', 'one');
    await store.set('A', 'two');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(`${file}.bak`)).mode & 0o777).toBe(0o600);
  });

  it.skipIf(!posix)('narrows a file that others could read to 0600, with a warning', async () => {
    await writeFile(file, JSON.stringify({ version: 1, secrets: { A: 'value-a' } }));
    await chmod(file, 0o644);
    const store = await open();
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(
      records.some((r) => r.level === 'warn' && r.message.includes('readable by others')),
    ).toBe(true);
    expect(await store.get('A')).toBe('value-a');
  });

  it('validates names and refuses empty values', async () => {
    const store = await open();
    await expect(store.set('bad name', 'x')).rejects.toMatchObject({ code: 'secret_name_invalid' });
    await expect(store.set('', 'x')).rejects.toMatchObject({ code: 'secret_name_invalid' });
    await expect(store.set('OK', '')).rejects.toMatchObject({ code: 'secret_value_invalid' });
    await expect(store.delete('a/b')).rejects.toMatchObject({ code: 'secret_name_invalid' });
  });

  it('refuses a corrupt file without quoting it and without replacing it', async () => {
    await writeFile(file, '{"version": 1, "secrets": {"A": "sk-live-abc"');
    await expect(FileSecretStore.open(file)).rejects.toMatchObject({ code: 'secret_file_invalid' });
    await expect(FileSecretStore.open(file)).rejects.not.toThrow(/sk-live/);
    await writeFile(file, JSON.stringify({ version: 2, secrets: {} }));
    await expect(FileSecretStore.open(file)).rejects.toThrow(/not a Patchbay secret file/);
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
    await cli.set('NEW', 'fresh-value');
    expect(await engine.get('NEW')).toBe('fresh-value');
  });

  it('masks every stored value of 4+ characters in log output', async () => {
    const store = await open();
    await store.set('API_KEY', 'sk-abc123');
    await store.set('LONGER', 'sk-abc123-and-more');
    await store.set('QUOTED', 'pa"ss\\word');
    await store.set('PIN', '123');
    createLogger('test').error('upstream said sk-abc123-and-more then sk-abc123; pin 123', {
      header: 'Bearer pa"ss\\word',
    });
    const line = JSON.stringify(records.at(-1));
    expect(line).toContain('[secret:LONGER] then [secret:API_KEY]; pin 123');
    expect(line).toContain('Bearer [secret:QUOTED]');
    expect(line).not.toContain('sk-abc');
    expect(line).not.toContain('ss\\\\word');
  });

  it('stops masking after close', async () => {
    const store = await FileSecretStore.open(file);
    await store.set('GONE', 'value-gone');
    expect(scrubText('value-gone')).toBe('[secret:GONE]');
    await store.close();
    expect(scrubText('value-gone')).toBe('value-gone');
  });
});
