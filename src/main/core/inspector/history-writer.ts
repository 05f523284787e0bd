/**
 * History on disk: append-only JSONL files in <data dir>/inspector, named by the seq of their
 * first event (`capture-000000001234.jsonl`) so a cursor finds its file by name. A file is closed
 * at `historyFileBytes` and a new one started; files past `historyMaxAgeMs`, and the oldest while
 * the total is over `historyMaxBytes`, are deleted. Files are 0600: they hold (redacted) traffic.
 *
 * Writing never waits: lines are batched (a write every FLUSH_MS, or sooner past FLUSH_BYTES: one
 * write per message would cost more than the capture itself) and handed to a write stream; when
 * the disk falls behind by `historyMaxPendingBytes`, lines are dropped and counted instead.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../log/logger.js';
import { historyFileName, listHistoryFiles } from './history-read.js';
import type { InspectorLimits } from './settings.js';
import { ChunkWriter } from './chunk-writer.js';
import { eventHead, eventTail, type StoredEvent } from './stored-event.js';

const FLUSH_MS = 100;
const FLUSH_BYTES = 256 * 1024;

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
  private fileFirstSeq = 0;
  private readonly pending = new ChunkWriter();
  private broken = false;
  private pruning: Promise<void> | undefined;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    readonly dir: string,
    private readonly limits: WriterLimits,
    private readonly log: Logger,
  ) {}

  static async open(dir: string, limits: WriterLimits, log: Logger): Promise<HistoryWriter> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const writer = new HistoryWriter(dir, limits, log);
    await writer.prune();
    return writer;
  }

  /** Queues an event's line. A new file starts only before an event line. */
  addEvent(e: StoredEvent): void {
    if (!this.room()) return;
    const head = eventHead(e);
    const size = head.length + (e.json?.length ?? 0) + 16;
    if (!this.stream || this.currentSize + size >= this.limits.historyFileBytes) this.rotate(e.seq);
    // A reference to a message in the previous file could not be resolved: write it in full.
    const full = e.sameAs !== undefined && e.sameAs < this.fileFirstSeq;
    if (e.json !== undefined && (full || e.sameAs === undefined)) {
      // The message is written from the string the hub received (flat), not concatenated.
      this.pending.write(`${head},"message":`);
      this.pending.write(e.json);
      this.pending.write('}\n');
    } else {
      this.pending.write(`${head}${eventTail(e, true)}\n`);
    }
    this.queued(size);
  }

  /** Queues a line that is not an event (a session summary). */
  addLine(line: string): void {
    if (!this.room()) return;
    if (!this.stream) this.rotate(this.nextSeq());
    this.pending.write(line);
    this.pending.write('\n');
    this.queued(line.length + 1);
  }

  /** Hands the queued lines to the disk. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.bytes === 0 || this.broken || !this.stream) return;
    const stream = this.stream;
    const buffers = this.pending.take();
    stream.cork();
    for (const b of buffers) stream.write(b);
    stream.uncork();
  }

  private room(): boolean {
    if (this.broken || this.closed || (this.stream?.writableLength ?? 0) + this.pending.bytes > this.limits.historyMaxPendingBytes) {
      this.dropped++;
      return false;
    }
    return true;
  }

  private queued(size: number): void {
    this.currentSize += size;
    if (this.pending.bytes >= FLUSH_BYTES) this.flush();
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
  async prune(): Promise<void> {
    const files = await listHistoryFiles(this.dir);
    const now = Date.now();
    let total = files.reduce((n, f) => n + f.size, 0);
    for (const f of files) {
      if (f.path === this.currentFile) continue;
      if (now - f.mtimeMs > this.limits.historyMaxAgeMs || total > this.limits.historyMaxBytes) {
        total -= f.size;
        await rm(f.path, { force: true });
      }
    }
  }

  private rotate(firstSeq: number): void {
    this.flush();
    const old = this.stream;
    old?.end();
    this.fileCount++;
    this.fileFirstSeq = firstSeq;
    this.currentFile = path.join(this.dir, historyFileName(firstSeq));
    this.currentSize = 0;
    const stream = createWriteStream(this.currentFile, { flags: 'a', mode: 0o600 });
    stream.on('error', (err) => {
      if (this.broken) return;
      this.broken = true;
      this.log.warn(`inspector history disabled: cannot write ${this.currentFile}: ${err.message}`);
    });
    this.stream = stream;
    for (const line of this.headLines()) {
      this.pending.write(line);
      this.pending.write('\n');
      this.currentSize += line.length + 1;
    }
    if (old) this.pruning = (this.pruning ?? Promise.resolve()).then(() => this.prune()).catch((err: Error) => this.log.warn(`inspector history pruning failed: ${err.message}`));
  }
}
