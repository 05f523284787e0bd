/**
 * Watches one file for changes by watching its directory: atomic saves (ours and most
 * editors') replace the file with a new inode, which a watch on the file itself would miss.
 *
 * A symlinked file (a config.json kept in a dotfiles repo and linked into the data dir) is
 * watched in two places: the link's directory (the link replaced or pointed elsewhere) and its
 * target's (edits to the real file, which never touch the link's directory). The target is
 * looked up again after every event, so a link pointed elsewhere is followed.
 */
import { realpathSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

export interface FileWatcher {
  close(): void;
}

export interface WatchFileOptions {
  /** Quiet period before `onChange` runs; editors emit several events per save. */
  debounceMs?: number;
  onError?: (err: Error) => void;
}

/** A directory to watch and the name in it that matters. */
interface Place {
  dir: string;
  name: string;
}

/** Where events about `file` show up: its own directory, and its target's when it is a link. */
export function placesToWatch(file: string): Place[] {
  const own: Place = { dir: path.dirname(path.resolve(file)), name: path.basename(file) };
  let real: string;
  let ownDir: string;
  try {
    real = realpathSync(file);
    ownDir = realpathSync(own.dir);
  } catch {
    return [own]; // not there (yet), or a dangling link: its directory is all there is to watch
  }
  const target: Place = { dir: path.dirname(real), name: path.basename(real) };
  return target.dir === ownDir && target.name === own.name ? [own] : [own, target];
}

/**
 * Call `onChange` (debounced) after anything happens to `file` (or, for a symlink, to the file it
 * points to). It may fire for events that did not change the content (temp files, touches):
 * callers compare content themselves.
 */
export function watchFile(
  file: string,
  onChange: () => void,
  options: WatchFileOptions = {},
): FileWatcher {
  const debounceMs = options.debounceMs ?? 50;
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const fire = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (closed) return;
      follow(); // the link may point elsewhere now
      onChange();
    }, debounceMs);
  };

  const open = (place: Place): FSWatcher => {
    // persistent: false — watching a config must never be what keeps a process alive.
    const watcher = watch(place.dir, { persistent: false }, (_event, filename) => {
      // Some platforms give no filename; macOS may report the temp name of an atomic save.
      if (filename && !String(filename).includes(place.name)) return;
      fire();
    });
    watcher.on('error', (err) => options.onError?.(err));
    return watcher;
  };

  const follow = (first = false): void => {
    const places = placesToWatch(file);
    const wanted = new Map(places.map((p) => [`${p.dir}\0${p.name}`, p]));
    for (const [key, watcher] of watchers) {
      if (wanted.has(key)) continue;
      watcher.close();
      watchers.delete(key);
    }
    for (const [key, place] of wanted) {
      if (watchers.has(key)) continue;
      try {
        watchers.set(key, open(place));
      } catch (err) {
        // The file's own directory must be watchable at the start (that fails loudly); a target
        // directory that cannot be watched is reported, and the link's own events still count.
        if (first && place === places[0]) throw err;
        options.onError?.(err as Error);
      }
    }
  };
  follow(true);

  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
