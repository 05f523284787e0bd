/**
 * History on disk: append-only JSONL files in <data dir>/inspector, named by the seq of their
 * first event (`capture-000000001234.jsonl`) so a cursor finds its file by name. A file is closed
 * at `historyFileBytes` and a new one started; files past `historyMaxAgeMs`, and the oldest while
 * the total is over `historyMaxBytes`, are deleted. Files are 0600: they hold (redacted) traffic.
 *
 * Lines are encoded straight into the inspector's line log (line-log.ts), where memory keeps its
 * messages too: the disk gets views of the very bytes memory reads, with no second copy.
 * Writing never waits: lines are batched (a write every FLUSH_MS, or sooner past FLUSH_BYTES: one
 * write per message would cost more than the capture itself) and handed to a write stream; when
 * the disk falls behind by `historyMaxPendingBytes`, lines are dropped and counted instead (an
 * event still reaches memory).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../log/logger.js';
import type { TextForm } from '../traffic/message-text.js';
import { writeEventLine } from './event-line.js';
import { historyFileName, listHistoryFiles } from './history-read.js';
import type { LineLog } from './line-log.js';
import type { InspectorLimits } from './settings.js';
import type { StoredEvent } from './stored-event.js';

const FLUSH_MS = 100;
const FLUSH_BYTES = 1024 * 1024;

type WriterLimits = Pick<InspectorLimits, 'historyFileBytes' | 'historyMaxBytes' | 'historyMaxAgeMs' | 'historyMaxPendingBytes'>;

export class HistoryWriter {
  /** Lines dropped because the disk fell behind or a write failed. */
  dropped = 0;
  /** Files started by this writer. */
  fileCount = 0;
  /**
   * Lines that start every new file: the inspector's live sessions, so that each file describes
   * the sessions its events belong to even after retention deleted the file where they began.
   */
  headLines: () => string[] = () => [];
  /** Names a file started before an event line: the seq the inspector assigns next. */
  nextSeq: () => number = () => 0;
  private stream: WriteStream | undefined;
  private currentFile: string | undefined;
  /** Bytes of the current file, written and pending. */
  private currentSize = 0;
  private broken = false;
  /**
   * The files of the directory as this writer knows them, oldest first: read from disk once (at
   * open), then kept as files are started and deleted — a rotation (every `historyFileBytes`, so
   * every few calls when answers are a MiB) would otherwise list and stat every file again.
   */
  private files: Array<{ path: string; size: number; mtimeMs: number }> = [];
  private pruning: Promise<void> | undefined;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    readonly dir: string,
    private readonly limits: WriterLimits,
    private readonly pending: LineLog,
    private readonly log: Logger,
  ) {}

  static async open(dir: string, limits: WriterLimits, lines: LineLog, log: Logger): Promise<HistoryWriter> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const writer = new HistoryWriter(dir, limits, lines, log);
    await writer.prune(true);
    return writer;
  }

  /**
   * Writes an event's line (its message `json` last) into the line log, to go to disk with the
   * next batch. A new file starts only before an event line. The line is written even when it
   * is dropped from the disk: memory reads the message from it.
   */
  addEvent(e: StoredEvent, json: string | undefined, form: TextForm = 'utf8'): void {
    const keep = this.room();
    if (keep && (!this.stream || this.currentSize >= this.limits.historyFileBytes)) this.rotate(e.seq);
    writeEventLine(this.pending, e, json, form);
    if (!keep) {
      this.pending.discard();
      return;
    }
    this.queued(e.logBytes);
  }

  /** Queues a line that is not an event (a session summary). */
  addLine(line: string): void {
    if (!this.room()) return;
    if (!this.stream) this.rotate(this.nextSeq());
    const before = this.pending.pendingBytes;
    this.writeLine(line);
    this.queued(this.pending.pendingBytes - before);
  }

  /** Hands the queued lines to the disk. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.pendingBytes === 0 || this.broken || !this.stream) return;
    const stream = this.stream;
    const { buffers, written } = this.pending.take();
    stream.cork();
    // Writes complete in order: the last one's callback says the disk has them all.
    for (let i = 0; i < buffers.length; i++) stream.write(buffers[i]!, i === buffers.length - 1 ? written : undefined);
    stream.uncork();
  }

  private writeLine(line: string): void {
    const log = this.pending;
    for (;;) {
      log.begin();
      log.utf8(line);
      log.byte(0x0a);
      if (!log.overflow) return log.end();
      log.retry();
    }
  }

  /** Room for one more line; when there is none, what is queued goes to the stream and the line is dropped. */
  private room(): boolean {
    if (this.broken || this.closed || (this.stream?.writableLength ?? 0) + this.pending.pendingBytes > this.limits.historyMaxPendingBytes) {
      this.dropped++;
      // Lines queued before the dropped one still go to disk, in order.
      this.flush();
      return false;
    }
    return true;
  }

  private queued(size: number): void {
    this.currentSize += size;
    if (this.pending.pendingBytes >= FLUSH_BYTES) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Resolves when every line queued so far is written (readers then see it). */
  settled(): Promise<void> {
    this.flush();
    const stream = this.stream;
    if (!stream || this.broken) return Promise.resolve();
    return new Promise((resolve) => stream.write('', () => resolve()));
  }

  async close(): Promise<void> {
    this.flush();
    this.closed = true;
    const stream = this.stream;
    this.stream = undefined;
    if (stream) await new Promise<void>((resolve) => stream.end(() => resolve()));
    await this.pruning;
  }

  /** Deletes files past the age limit, then the oldest while over the size limit. */
  async prune(fromDisk = false): Promise<void> {
    if (fromDisk) this.files = (await listHistoryFiles(this.dir)).map(({ path: p, size, mtimeMs }) => ({ path: p, size, mtimeMs }));
    const now = Date.now();
    const sizeOf = (f: { path: string; size: number }): number => (f.path === this.currentFile ? this.currentSize : f.size);
    let total = this.files.reduce((n, f) => n + sizeOf(f), 0);
    for (const f of [...this.files]) {
      if (f.path === this.currentFile) continue;
      if (now - f.mtimeMs > this.limits.historyMaxAgeMs || total > this.limits.historyMaxBytes) {
        total -= f.size;
        this.files = this.files.filter((x) => x !== f);
        await rm(f.path, { force: true });
      }
    }
  }

  /** Starts a new file, named by the seq of its first event. */
  private rotate(firstSeq: number): void {
    this.flush();
    const old = this.stream;
    old?.end();
    // The file just closed keeps the size it was written to, and its time of closing.
    const closed = this.files.find((f) => f.path === this.currentFile);
    if (closed) Object.assign(closed, { size: this.currentSize, mtimeMs: Date.now() });
    this.fileCount++;
    this.currentFile = path.join(this.dir, historyFileName(firstSeq));
    this.currentSize = 0;
    this.files.push({ path: this.currentFile, size: 0, mtimeMs: Date.now() });
    const stream = createWriteStream(this.currentFile, { flags: 'a', mode: 0o600 });
    stream.on('error', (err) => {
      if (this.broken) return;
      this.broken = true;
      this.log.warn(`inspector history disabled: cannot write ${this.currentFile}: ${err.message}`);
    });
    this.stream = stream;
    const before = this.pending.pendingBytes;
    for (const line of this.headLines()) this.writeLine(line);
    this.currentSize += this.pending.pendingBytes - before;
    if (old) this.pruning = (this.pruning ?? Promise.resolve()).then(() => this.prune()).catch((err: Error) => this.log.warn(`inspector history pruning failed: ${err.message}`));
  }
}
