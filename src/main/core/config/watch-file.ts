/**
 * Watches one file for changes by watching its directory: atomic saves (ours and most
 * editors') replace the file with a new inode, which a watch on the file itself would miss.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

export interface FileWatcher {
  close(): void;
}

export interface WatchFileOptions {
  /** Quiet period before `onChange` runs; editors emit several events per save. */
  debounceMs?: number;
  onError?: (err: Error) => void;
}

/**
 * Call `onChange` (debounced) after anything happens to `file`. It may fire for events that did
 * not change the content (temp files, touches): callers compare content themselves.
 */
export function watchFile(
  file: string,
  onChange: () => void,
  options: WatchFileOptions = {},
): FileWatcher {
  const debounceMs = options.debounceMs ?? 50;
  const base = path.basename(file);
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  // persistent: false — watching a config must never be what keeps a process alive.
  const watcher: FSWatcher = watch(
    path.dirname(file),
    { persistent: false },
    (_event, filename) => {
      // Some platforms give no filename; macOS may report the temp name of an atomic save.
      if (filename && !String(filename).includes(base)) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        if (!closed) onChange();
      }, debounceMs);
    },
  );
  watcher.on('error', (err) => options.onError?.(err));

  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}
