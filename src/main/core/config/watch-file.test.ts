// The config watcher on a real file system: a symlinked config.json (issue 17 item 11).
import { mkdir, mkdtemp, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { placesToWatch, watchFile, type FileWatcher } from './watch-file.js';
import { skipNote, WINDOWS } from '../../../../test/helpers/skip-note.js';

let dir: string;
let watcher: FileWatcher | undefined;

afterEach(async () => {
  watcher?.close();
  watcher = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Resolves on the next change the watcher reports (rejects after a generous deadline). */
function nextChange(file: string): { changed: Promise<void> } {
  let resolve!: () => void;
  const changed = new Promise<void>((r) => (resolve = r));
  let count = 0;
  watcher = watchFile(
    file,
    () => {
      count++;
      resolve();
    },
    { debounceMs: 10 },
  );
  return {
    changed: Promise.race([
      changed,
      new Promise<void>((_, reject) =>
        setTimeout(
          () => reject(new Error(`no change reported for ${file} within 10 s (${count})`)),
          10_000,
        ),
      ),
    ]),
  };
}

/** An atomic save, as editors and Patchbay do it: a temp file beside the target, renamed over it. */
async function atomicSave(file: string, text: string): Promise<void> {
  const temp = `${file}.tmp-${process.pid}`;
  await writeFile(temp, text);
  await rename(temp, file);
}

async function symlinkedConfig(): Promise<{ link: string; real: string }> {
  dir = await mkdtemp(path.join(tmpdir(), 'pb-watch-'));
  await mkdir(path.join(dir, 'dotfiles'));
  await mkdir(path.join(dir, 'data'));
  const real = path.join(dir, 'dotfiles', 'patchbay.json');
  await writeFile(real, '{"mcpServers":{}}');
  const link = path.join(dir, 'data', 'config.json');
  await symlink(real, link);
  return { link, real };
}

describe('watchFile', () => {
  it.runIf(!WINDOWS)(
    skipNote(WINDOWS, 'sees an atomic save of the real file behind a symlinked config.json', 'symlinks need privileges on Windows'),
    async () => {
      const { link, real } = await symlinkedConfig();
      const { changed } = nextChange(link);
      await atomicSave(real, '{"mcpServers":{"a":{"command":"x"}}}');
      await changed;
    },
  );

  it.runIf(!WINDOWS)(
    skipNote(WINDOWS, 'sees an in-place write of the real file behind the link', 'symlinks need privileges on Windows'),
    async () => {
      const { link, real } = await symlinkedConfig();
      const { changed } = nextChange(link);
      await writeFile(real, '{"mcpServers":{"b":{"command":"y"}}}');
      await changed;
    },
  );

  it.runIf(!WINDOWS)(
    skipNote(WINDOWS, 'follows the link when it is pointed at another file', 'symlinks need privileges on Windows'),
    async () => {
      const { link } = await symlinkedConfig();
      await mkdir(path.join(dir, 'elsewhere'));
      const other = path.join(dir, 'elsewhere', 'other.json');
      await writeFile(other, '{}');
      const first = nextChange(link);
      await unlink(link);
      await symlink(other, link);
      await first.changed;
      expect(placesToWatch(link).map((p) => p.dir)).toContain(path.join(dir, 'elsewhere'));
      watcher!.close();
      const second = nextChange(link);
      await atomicSave(other, '{"mcpServers":{}}');
      await second.changed;
    },
  );

  it('watches only the file’s own directory for a plain file (and for one not there yet)', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pb-watch-'));
    const file = path.join(dir, 'config.json');
    expect(placesToWatch(file)).toEqual([{ dir, name: 'config.json' }]);
    await writeFile(file, '{}');
    expect(placesToWatch(file)).toEqual([{ dir, name: 'config.json' }]);
    const { changed } = nextChange(file);
    await atomicSave(file, '{"mcpServers":{}}');
    await changed;
  });
});
