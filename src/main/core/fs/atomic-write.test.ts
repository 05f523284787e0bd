import {
  chmod,
  lstat,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-write.js';
import { skipNote } from '../../../../test/helpers/skip-note.js';

const posix = process.platform !== 'win32';
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pb-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const modeOf = async (file: string): Promise<number> => (await stat(file)).mode & 0o777;

describe('writeFileAtomic', () => {
  it('creates a file and leaves no temp files behind', async () => {
    const file = path.join(dir, 'a.json');
    await writeFileAtomic(file, '{"a":1}\n');
    expect(await readFile(file, 'utf8')).toBe('{"a":1}\n');
    expect(await readdir(dir)).toEqual(['a.json']);
  });

  it('replaces an existing file and keeps exactly one backup of the previous content', async () => {
    const file = path.join(dir, 'c.json');
    await writeFileAtomic(file, 'one', { backup: true });
    expect(await readdir(dir)).toEqual(['c.json']); // nothing to back up yet
    await writeFileAtomic(file, 'two', { backup: true });
    await writeFileAtomic(file, 'three', { backup: true });
    expect(await readFile(file, 'utf8')).toBe('three');
    expect(await readFile(`${file}.bak`, 'utf8')).toBe('two');
    expect((await readdir(dir)).sort()).toEqual(['c.json', 'c.json.bak']);
  });

  it.skipIf(!posix)(skipNote(!posix, 'applies an explicit mode exactly, whatever the umask', 'file modes are POSIX (Windows has ACLs)'), async () => {
    const file = path.join(dir, 'secret');
    await writeFileAtomic(file, 'x', { mode: 0o600 });
    expect(await modeOf(file)).toBe(0o600);
  });

  it.skipIf(!posix)(skipNote(!posix, 'preserves the mode of the file it replaces', 'file modes are POSIX (Windows has ACLs)'), async () => {
    const file = path.join(dir, 'keep');
    await writeFile(file, 'old');
    await chmod(file, 0o640);
    await writeFileAtomic(file, 'new');
    expect(await modeOf(file)).toBe(0o640);
  });

  it.skipIf(!posix)(skipNote(!posix, 'never makes a backup more readable than the new mode', 'file modes are POSIX (Windows has ACLs)'), async () => {
    const file = path.join(dir, 'secrets.json');
    await writeFile(file, 'old');
    await chmod(file, 0o644);
    await writeFileAtomic(file, 'new', { mode: 0o600, backup: true });
    expect(await modeOf(file)).toBe(0o600);
    expect(await modeOf(`${file}.bak`)).toBe(0o600);
  });

  it.skipIf(!posix)(skipNote(!posix, 'writes through a symlink instead of replacing it', 'symlinks need privileges on Windows'), async () => {
    const real = path.join(dir, 'real.json');
    const link = path.join(dir, 'link.json');
    await writeFile(real, 'old');
    await symlink(real, link);
    await writeFileAtomic(link, 'new');
    expect(await readFile(real, 'utf8')).toBe('new');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
  });

  it('fails cleanly when the directory does not exist', async () => {
    await expect(writeFileAtomic(path.join(dir, 'missing', 'x'), 'x')).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it('survives many concurrent writers: the result is one complete write', async () => {
    const file = path.join(dir, 'race.txt');
    const payloads = Array.from({ length: 20 }, (_, i) =>
      `${i}:`.padEnd(10_000, String.fromCharCode(97 + i)),
    );
    await Promise.all(payloads.map((p) => writeFileAtomic(file, p, { backup: true })));
    expect(payloads).toContain(await readFile(file, 'utf8'));
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
