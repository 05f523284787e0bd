// Secrets from a mounted directory and the environment, in front of the data dir's store.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSecretStore, scrubText } from '../core/index.js';
import { MountedSecretStore } from './serve-deploy.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'pb-mounted-secrets-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('MountedSecretStore', () => {
  it('reads the environment, then the mounted files, then the store; writes go to the store', async () => {
    const dir = path.join(root, 'mounted');
    await mkdir(path.join(dir, '..data'), { recursive: true });
    await writeFile(path.join(dir, 'API_KEY'), 'key-from-the-mount-123\n');
    await writeFile(path.join(dir, 'BOTH'), 'file-loses-to-env');
    const base = await FileSecretStore.open(path.join(root, 'secrets.json'));
    await base.set('STORED', 'value-in-the-store-456');
    const store = await MountedSecretStore.open(base, dir, new Map([['BOTH', 'env-wins-789']]));
    try {
      expect(await store.get('API_KEY')).toBe('key-from-the-mount-123');
      expect(await store.get('BOTH')).toBe('env-wins-789');
      expect(await store.get('STORED')).toBe('value-in-the-store-456');
      expect(await store.get('..data')).toBeUndefined();
      expect(await store.get('MISSING')).toBeUndefined();
      expect(await store.list()).toEqual(['API_KEY', 'BOTH', 'STORED']);
      // OAuth tokens and the like are written by the engine: they go to the data dir's store.
      await store.set('oauth.tokens.abc', '{"x":1}');
      expect(await base.get('oauth.tokens.abc')).toBe('{"x":1}');
      await expect(store.set('API_KEY', 'other')).rejects.toThrow(/comes from the mounted directory/);
      await expect(store.delete('BOTH')).rejects.toThrow(/comes from the environment \(PATCHBAY_SECRET_BOTH\)/);
      // A rotated file is read again at once.
      await writeFile(path.join(dir, 'API_KEY'), 'rotated-key-000');
      expect(await store.get('API_KEY')).toBe('rotated-key-000');
      // Mounted values are masked in log lines, like the store's.
      expect(scrubText('a key-from-the-mount-123 and env-wins-789 and rotated-key-000')).toBe('a [secret:API_KEY] and [secret:BOTH] and [secret:API_KEY]');
    } finally {
      await base.close();
    }
  });

  it('refuses a secrets directory that is not there', async () => {
    const base = await FileSecretStore.open(path.join(root, 'secrets.json'));
    await expect(MountedSecretStore.open(base, path.join(root, 'nope'), new Map())).rejects.toThrow(/cannot read the secrets directory/);
    await base.close();
  });
});
