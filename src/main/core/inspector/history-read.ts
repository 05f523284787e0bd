/**
 * Reading the history files back: the session index at startup, the last seq (so cursors keep
 * growing across restarts), a session's events, and every event after a cursor. Lines are
 * filtered by a cheap prefix/substring test before any JSON.parse.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { CaptureEvent, InspectorSession } from '../../../shared/api/inspector-contract.js';
import { errCode } from '../fs/err-code.js';
import { readdirOrEmpty } from '../fs/read-dir.js';
import { eventsFromLine } from './event-line.js';

export interface HistoryFile {
  name: string;
  path: string;
  firstSeq: number;
  size: number;
  mtimeMs: number;
}

const FILE_PATTERN = /^capture-(\d{12,})\.jsonl$/;
/** Event lines start with this (the seq is the first key); session lines with SESSION_PREFIX. */
export const EVENT_PREFIX = '{"seq":';
export const SESSION_PREFIX = '{"rec":"session"';

export function historyFileName(firstSeq: number): string {
  return `capture-${String(firstSeq).padStart(12, '0')}.jsonl`;
}

export function sessionLine(summary: InspectorSession): string {
  return `${SESSION_PREFIX},"session":${JSON.stringify(summary)}}`;
}

/** The history files, oldest (lowest first seq) first. */
export async function listHistoryFiles(dir: string): Promise<HistoryFile[]> {
  const names = await readdirOrEmpty(dir);
  const files: HistoryFile[] = [];
  for (const name of names) {
    const m = FILE_PATTERN.exec(name);
    if (!m) continue;
    const file = path.join(dir, name);
    try {
      const s = await stat(file);
      files.push({ name, path: file, firstSeq: Number(m[1]), size: s.size, mtimeMs: s.mtimeMs });
    } catch {
      // Deleted by retention meanwhile.
    }
  }
  return files.sort((a, b) => a.firstSeq - b.firstSeq || a.name.localeCompare(b.name));
}

/** Lines of one file; a file deleted meanwhile reads as empty. */
export async function* fileLines(file: string): AsyncGenerator<string> {
  const input = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) yield line;
  } catch (err) {
    if (errCode(err) !== 'ENOENT') throw err;
  } finally {
    lines.close();
    input.destroy();
  }
}

/** The highest event seq on disk (0 when there is none), from the tail of the newest files. */
export async function lastSeqOnDisk(dir: string): Promise<number> {
  const files = await listHistoryFiles(dir);
  for (let i = files.length - 1; i >= 0; i--) {
    const f = files[i]!;
    if (f.size === 0) continue;
    const handle = await open(f.path, 'r');
    try {
      for (let span = 64 * 1024; ; span *= 4) {
        const start = Math.max(0, f.size - span);
        const buf = Buffer.alloc(f.size - start);
        await handle.read(buf, 0, buf.length, start);
        let best = 0;
        for (const line of buf.toString('utf8').split('\n')) {
          // A pair's line holds two seqs: its own, and its second leg's right after it.
          const m = /^\{"seq":(\d+)(?:,"twin":\{"seq":(\d+))?/.exec(line);
          if (m) best = Math.max(best, Number(m[2] ?? m[1]));
        }
        if (best > 0) return best;
        if (start === 0) break;
      }
    } finally {
      await handle.close();
    }
    // Only session lines in this file: its events, if any, start at its first seq.
    return Math.max(0, f.firstSeq - 1);
  }
  return 0;
}

/** The last summary of every session on disk. Sessions that never ended were cut off by a stop. */
export async function loadSessionIndex(dir: string): Promise<Map<string, InspectorSession>> {
  const index = new Map<string, InspectorSession>();
  for (const f of await listHistoryFiles(dir)) {
    for await (const line of fileLines(f.path)) {
      if (!line.startsWith(SESSION_PREFIX)) continue;
      try {
        const { session } = JSON.parse(line) as { session: InspectorSession };
        index.delete(session.id);
        index.set(session.id, { ...session, inMemory: false });
      } catch {
        // A line cut short by a crash: skip it.
      }
    }
  }
  for (const s of index.values()) {
    if (s.endedAt !== undefined) continue;
    s.endReason = 'the hub stopped before the session ended';
    if (s.state === 'live') s.state = 'closed';
  }
  return index;
}

export interface ReadOptions {
  /** Only events with seq greater than this. */
  after?: number;
  /** Cheap test on the raw line before parsing (e.g. a session id substring). */
  line?: (line: string) => boolean;
  /** Test on the parsed event. */
  accept?: (e: CaptureEvent) => boolean;
}

/** The (first) seq of an event line, read without parsing the line. */
function seqOfLine(line: string): number {
  let n = 0;
  for (let i = EVENT_PREFIX.length; i < line.length; i++) {
    const c = line.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    n = n * 10 + c;
  }
  return n;
}

/**
 * Events on disk in seq order; a pair's line gives two. `same` references (files written by
 * earlier versions) are resolved from the lines just before, in the same file; only lines that
 * are wanted, or referenced, are parsed.
 */
export async function* historyEvents(dir: string, options: ReadOptions = {}): AsyncGenerator<CaptureEvent> {
  const after = options.after ?? 0;
  const files = await listHistoryFiles(dir);
  for (let i = 0; i < files.length; i++) {
    const next = files[i + 1];
    if (next && next.firstSeq <= after + 1) continue;
    yield* fileEvents(files[i]!.path, options);
  }
}

/** The events of one history file, in order (see historyEvents). */
export async function* fileEvents(file: string, options: ReadOptions = {}): AsyncGenerator<CaptureEvent> {
  const after = options.after ?? 0;
  const recent = new Map<number, string>();
  let recentBytes = 0;
  const resolve = (seq: number): unknown => {
    const line = recent.get(seq);
    return line === undefined ? undefined : eventsFromLine(line)[0]?.message;
  };
  for await (const line of fileLines(file)) {
    if (!line.startsWith(EVENT_PREFIX)) continue;
    const seq = seqOfLine(line);
    if (line.includes('"message":')) {
      recent.set(seq, line);
      recentBytes += line.length;
      while (recent.size > 1024 || (recentBytes > 32 * 1024 * 1024 && recent.size > 1)) {
        const [oldest, text] = recent.entries().next().value!;
        recent.delete(oldest);
        recentBytes -= text.length;
      }
    }
    // seq + 1: the second leg of a pair may be past the cursor when its first is not.
    if (seq + 1 <= after || (options.line && !options.line(line))) continue;
    for (const e of eventsFromLine(line, resolve)) if (e.seq > after && (!options.accept || options.accept(e))) yield e;
  }
}
