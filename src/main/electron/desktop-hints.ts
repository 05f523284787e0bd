/**
 * Hints the app gives once per install (e.g. "closing the window keeps Patchbay running"),
 * remembered in `<userData>/hints.json` so they never nag.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../core/index.js';

export class OneTimeHints {
  private readonly file: string;
  private shown: Promise<Set<string>> | undefined;

  constructor(userData: string) {
    this.file = path.join(userData, 'hints.json');
  }

  /** True the first time `key` is asked for (ever, on this data dir); false afterwards. */
  async once(key: string): Promise<boolean> {
    this.shown ??= this.load();
    const shown = await this.shown;
    if (shown.has(key)) return false;
    shown.add(key);
    await writeFileAtomic(this.file, JSON.stringify({ shown: [...shown] }) + '\n', { mode: 0o600 }).catch(() => undefined);
    return true;
  }

  private async load(): Promise<Set<string>> {
    try {
      const value = JSON.parse(await readFile(this.file, 'utf8')) as { shown?: unknown };
      return new Set(Array.isArray(value.shown) ? value.shown.filter((k): k is string => typeof k === 'string') : []);
    } catch {
      return new Set();
    }
  }
}
