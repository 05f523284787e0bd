import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PatchbayConfig } from '../../../shared/config-schema.js';
import { setLogSink } from '../log/logger.js';
import { ConfigError, ConfigStore, type ConfigStoreEvents } from './config-store.js';

let dir: string;
let file: string;
const stores: ConfigStore[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pb-config-'));
  file = path.join(dir, 'config.json');
  setLogSink(() => undefined);
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  setLogSink(undefined);
  await rm(dir, { recursive: true, force: true });
});

async function open(options: { watch?: boolean } = {}): Promise<ConfigStore> {
  const store = await ConfigStore.open(file, { debounceMs: 20, ...options });
  stores.push(store);
  return store;
}

function next<E extends keyof ConfigStoreEvents>(
  store: ConfigStore,
  event: E,
  timeoutMs = 5000,
): Promise<ConfigStoreEvents[E][0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no '${event}' event within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const off = store.on(event, (...args) => {
      clearTimeout(timer);
      off();
      resolve(args[0]);
    });
  });
}

const GOOD =
  '{\n    "mcpServers": {\n        "fs": { "command": "npx", "args": ["-y", "fs"] }\n    },\n    "zzz": 1,\n    "aaa": { "x": true }\n}\n';
const BROKEN = '{ "mcpServers": { "fs": { "command": "npx", } } }';

describe('ConfigStore.open', () => {
  it('treats a missing file as the default config and does not create it', async () => {
    const store = await open();
    expect(store.get()).toEqual({ mcpServers: {} });
    expect(store.problems).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('reports a bad file and serves the default config', async () => {
    await writeFile(file, BROKEN);
    const store = await open();
    expect(store.get()).toEqual({ mcpServers: {} });
    expect(store.problems).toEqual([expect.objectContaining({ path: '$', line: 1, column: 43 })]);
  });

  it('hands out a frozen config', async () => {
    await writeFile(file, GOOD);
    const store = await open();
    expect(() => {
      (store.get().mcpServers as Record<string, unknown>).x = {};
    }).toThrow(TypeError);
  });
});

describe('ConfigStore.update', () => {
  it('keeps unknown keys, key order and indentation, and keeps a .bak', async () => {
    await writeFile(file, GOOD);
    const store = await open();
    const result = await store.update((draft) => {
      draft.mcpServers.api = { url: 'https://example.com/mcp' };
    });
    expect(Object.keys(result)).toEqual(['mcpServers', 'zzz', 'aaa']);
    const written = await readFile(file, 'utf8');
    expect(JSON.parse(written)).toEqual({
      ...JSON.parse(GOOD),
      mcpServers: { ...JSON.parse(GOOD).mcpServers, api: { url: 'https://example.com/mcp' } },
    });
    expect(Object.keys(JSON.parse(written))).toEqual(['mcpServers', 'zzz', 'aaa']);
    expect(written).toContain('\n    "zzz": 1');
    expect(await readFile(`${file}.bak`, 'utf8')).toBe(GOOD);
    expect(store.get().mcpServers.api).toEqual({ url: 'https://example.com/mcp' });
  });

  it('creates a missing file with mode 0600', async () => {
    const store = await open();
    await store.update((draft) => ({ ...draft, mcpServers: { fs: { command: 'npx' } } }));
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      mcpServers: { fs: { command: 'npx' } },
    });
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('never overwrites a bad file', async () => {
    await writeFile(file, BROKEN);
    const store = await open();
    const attempt = store.update((draft) => {
      draft.mcpServers.x = { command: 'x' };
    });
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    await expect(attempt).rejects.toMatchObject({
      code: 'config_file_invalid',
      message: expect.stringContaining('left untouched'),
    });
    expect(await readFile(file, 'utf8')).toBe(BROKEN);
    expect(await readdir(dir)).toEqual(['config.json']);
  });

  it('refuses a file that went bad on disk since it was loaded, even without watching', async () => {
    await writeFile(file, GOOD);
    const store = await open();
    await writeFile(file, BROKEN);
    await expect(store.update(() => undefined)).rejects.toMatchObject({
      code: 'config_file_invalid',
    });
    expect(await readFile(file, 'utf8')).toBe(BROKEN);
    expect(store.get().mcpServers.fs).toBeDefined(); // last good config kept
  });

  it('rejects a change that would make the config invalid, writing nothing', async () => {
    await writeFile(file, GOOD);
    const store = await open();
    const attempt = store.update((draft) => {
      draft.mcpServers.bad = {
        command: 'x',
        url: 'https://example.com',
      } as PatchbayConfig['mcpServers'][string];
    });
    await expect(attempt).rejects.toMatchObject({
      code: 'config_update_invalid',
      problems: [{ path: '$.mcpServers.bad' }],
    });
    expect(await readFile(file, 'utf8')).toBe(GOOD);
  });

  it('starts from the file on disk, not a stale copy', async () => {
    await writeFile(file, GOOD);
    const store = await open();
    await writeFile(file, '{"mcpServers": {"other": {"command": "o"}}}');
    await store.update((draft) => {
      draft.mcpServers.added = { command: 'a' };
    });
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')).mcpServers)).toEqual([
      'other',
      'added',
    ]);
  });

  it('finishes updates queued before close', async () => {
    const store = await open();
    const pending = store.update((draft) => {
      draft.mcpServers.late = { command: 'l' };
    });
    await store.close();
    await expect(pending).resolves.toMatchObject({ mcpServers: { late: { command: 'l' } } });
  });

  it('serializes concurrent updates without losing any', async () => {
    const store = await open();
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.update((draft) => {
          draft.mcpServers[`s${i}`] = { command: `c${i}` };
        }),
      ),
    );
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')).mcpServers)).toHaveLength(10);
  });
});

describe('ConfigStore watching', () => {
  it('emits the new config when the file changes on disk', async () => {
    await writeFile(file, GOOD);
    const store = await open({ watch: true });
    const changed = next(store, 'change');
    await writeFile(file, '{"mcpServers": {"b": {"url": "https://b.example/mcp"}}}');
    expect((await changed).mcpServers).toEqual({ b: { url: 'https://b.example/mcp' } });
    expect(store.get().mcpServers).toEqual({ b: { url: 'https://b.example/mcp' } });
  });

  it('sees a file created after open', async () => {
    const store = await open({ watch: true });
    const changed = next(store, 'change');
    await writeFile(file, GOOD);
    expect(Object.keys((await changed).mcpServers)).toEqual(['fs']);
  });

  it('reports problems for a bad edit, keeps the last good config, and recovers on a fix', async () => {
    await writeFile(file, GOOD);
    const store = await open({ watch: true });
    const problems = next(store, 'problems');
    await writeFile(file, '{"mcpServers": {"fs": {"command": 42}}}');
    expect(await problems).toEqual([
      { path: '$.mcpServers.fs.command', message: 'must be a string, got a number' },
    ]);
    expect(store.get().mcpServers.fs).toEqual({ command: 'npx', args: ['-y', 'fs'] });
    expect(store.problems).toHaveLength(1);

    const changed = next(store, 'change');
    await writeFile(file, '{"mcpServers": {"fs": {"command": "node"}}}');
    expect((await changed).mcpServers.fs).toEqual({ command: 'node' });
    expect(store.problems).toEqual([]);
  });

  it('emits once for its own update and stays quiet for a touch with the same content', async () => {
    await writeFile(file, GOOD);
    const store = await open({ watch: true });
    const events: string[] = [];
    store.on('change', () => events.push('change'));
    store.on('problems', () => events.push('problems'));
    await store.update((draft) => {
      draft.mcpServers.x = { command: 'x' };
    });
    await writeFile(file, await readFile(file, 'utf8'));
    // A later real edit proves the watcher ran past both writes above.
    const changed = next(store, 'change');
    await writeFile(file, GOOD);
    await changed;
    expect(events).toEqual(['change', 'change']);
  });

  it('stops watching on close', async () => {
    await writeFile(file, GOOD);
    const store = await open({ watch: true });
    let fired = false;
    store.on('change', () => (fired = true));
    await store.close();
    await writeFile(file, '{"mcpServers": {}}');
    // No event can be awaited for something that must not happen; a reload proves the state.
    await store.reload();
    expect(fired).toBe(false);
    expect(Object.keys(store.get().mcpServers)).toEqual(['fs']);
    await expect(store.update(() => undefined)).rejects.toMatchObject({
      code: 'config_store_closed',
    });
  });
});
