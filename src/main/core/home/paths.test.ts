import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataPaths, ensureDataDir, resolveDataDir } from './paths.js';
import { skipNote, WINDOWS } from '../../../../test/helpers/skip-note.js';

describe('resolveDataDir', () => {
  it('prefers PATCHBAY_HOME on every platform', () => {
    expect(
      resolveDataDir({ env: { PATCHBAY_HOME: '/srv/pb' }, platform: 'linux', homedir: '/home/a' }),
    ).toBe('/srv/pb');
    expect(
      resolveDataDir({
        env: { PATCHBAY_HOME: 'C:\\pb' },
        platform: 'win32',
        homedir: 'C:\\Users\\a',
      }),
    ).toBe('C:\\pb');
  });

  it('ignores an empty PATCHBAY_HOME', () => {
    expect(
      resolveDataDir({ env: { PATCHBAY_HOME: ' ' }, platform: 'linux', homedir: '/home/a' }),
    ).toBe('/home/a/.config/patchbay');
  });

  it('uses Application Support on macOS', () => {
    expect(resolveDataDir({ env: {}, platform: 'darwin', homedir: '/Users/a' })).toBe(
      '/Users/a/Library/Application Support/Patchbay',
    );
  });

  it('uses %APPDATA% on Windows, falling back to the roaming profile', () => {
    expect(
      resolveDataDir({
        env: { APPDATA: 'C:\\Users\\a\\AppData\\Roaming' },
        platform: 'win32',
        homedir: 'C:\\Users\\a',
      }),
    ).toBe('C:\\Users\\a\\AppData\\Roaming\\Patchbay');
    expect(resolveDataDir({ env: {}, platform: 'win32', homedir: 'C:\\Users\\a' })).toBe(
      'C:\\Users\\a\\AppData\\Roaming\\Patchbay',
    );
  });

  it('uses XDG_CONFIG_HOME on Linux when absolute, else ~/.config', () => {
    expect(
      resolveDataDir({ env: { XDG_CONFIG_HOME: '/x/cfg' }, platform: 'linux', homedir: '/home/a' }),
    ).toBe('/x/cfg/patchbay');
    expect(
      resolveDataDir({
        env: { XDG_CONFIG_HOME: 'relative' },
        platform: 'linux',
        homedir: '/home/a',
      }),
    ).toBe('/home/a/.config/patchbay');
    expect(resolveDataDir({ env: {}, platform: 'freebsd', homedir: '/home/a' })).toBe(
      '/home/a/.config/patchbay',
    );
  });
});

describe('dataPaths', () => {
  it('names every well-known file inside the data dir', () => {
    const dir = path.join('/data', 'pb');
    expect(dataPaths(dir)).toEqual({
      dataDir: dir,
      configFile: path.join(dir, 'config.json'),
      secretsFile: path.join(dir, 'secrets.json'),
      tokenFile: path.join(dir, 'hub-token'),
      clientTokensFile: path.join(dir, 'client-tokens.json'),
      discoveryFile: path.join(dir, 'hub.json'),
      logsDir: path.join(dir, 'logs'),
      toolPinsFile: path.join(dir, 'tool-pins.json'),
      auditDir: path.join(dir, 'audit'),
    });
  });
});

describe('ensureDataDir', () => {
  let root: string | undefined;
  afterEach(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it.skipIf(WINDOWS)(
    skipNote(WINDOWS, 'creates missing dirs with mode 0700 and accepts an existing one', 'file modes are POSIX (Windows has ACLs)'),
    async () => {
      root = await mkdtemp(path.join(tmpdir(), 'pb-paths-'));
      const dir = path.join(root, 'a', 'b');
      await ensureDataDir(dir);
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      await ensureDataDir(dir);
      expect((await stat(dir)).isDirectory()).toBe(true);
    },
  );
});
