/**
 * A reader's pace, judged on what its writable holds back (PROTOCOL Q13): by what it fails to
 * take over time, never by the size of one message. Shared by the SSE writer (a node:http
 * response) and the stdio door (the relay's stdout), so both judge a slow reader alike.
 *
 * The pace remembers where each message it could not hand on at once ends, so it knows which
 * message the reader is taking now (the oldest one not fully taken) and how many bytes wait
 * *behind* it (`queued`): a 50 MiB notification a reader is busy taking leaves nothing queued
 * behind it but the answer that follows. `stalled(limits)` is true once a write was refused (and
 * nothing drained since), more than `maxBacklogBytes` wait behind the current message, and either
 * the reader took nothing for `stallMs` or what waits is past twice the cap (the memory bound: a
 * producer that cannot be held back may not outrun a slow reader without limit).
 */
import { Ring } from '../lib/ring.js';

/** How long a reader may take nothing, with more than the cap waiting, before it is judged stalled. */
export const DEFAULT_STALL_MS = 10_000;

export interface PaceLimits {
  /** Most bytes that may wait behind the event the reader is taking while it is stalled. */
  maxBacklogBytes: number;
  /** How long the reader may take nothing at all before it counts as stalled. */
  stallMs: number;
}

/** What the pace reads of the writable: the bytes it holds that its reader has not taken. */
export interface Holding {
  readonly writableLength: number;
}

export class WritePace {
  /** Bytes handed to the writable so far (reset whenever it is empty). */
  private written = 0;
  /** Where each message still (partly) in the writable's buffer ends, in `written` offsets. */
  private readonly ends = new Ring<number>();
  /** A write was refused and the writable has not drained since. */
  private refused = false;
  /** `written - writableLength` at the last look, and when it last grew. */
  private taken = 0;
  private progressAt = 0;

  constructor(private readonly out: Holding) {}

  /** The stream started (or drained): the reader's clock starts now. */
  progressed(now = Date.now()): void {
    this.progressAt = now;
  }

  /** The writable drained: it takes writes again. */
  drained(now = Date.now()): void {
    this.refused = false;
    this.progressAt = now;
  }

  /**
   * Notes `size` bytes just handed to the writable; `ok` what its write returned; `isMessage`
   * false for framing the reader is not judged by (a comment, a priming event).
   */
  wrote(size: number, ok: boolean, isMessage: boolean): void {
    this.written += size;
    if (this.out.writableLength === 0) {
      // Everything went on at once: no message is waiting, nothing to track.
      this.ends.clear();
      this.written = this.taken = 0;
    } else if (isMessage) this.ends.push(this.written);
    if (!ok) this.refused = true;
  }

  /** A write was refused and the writable has not drained since. */
  get blocked(): boolean {
    return this.refused;
  }

  /** Bytes waiting behind the message the reader is taking now. */
  get queued(): number {
    const taken = this.written - this.out.writableLength;
    const ends = this.ends;
    while (ends.length > 0 && ends.first! <= taken) ends.shift();
    const head = ends.first;
    return head === undefined ? 0 : this.written - head;
  }

  /** Whether the reader is judged stalled (see the file comment). */
  stalled(limits: PaceLimits, now = Date.now()): boolean {
    if (!this.refused) return false;
    const taken = this.written - this.out.writableLength;
    if (taken > this.taken) {
      this.taken = taken;
      this.progressAt = now;
    }
    const queued = this.queued;
    if (queued <= limits.maxBacklogBytes) return false;
    return queued > 2 * limits.maxBacklogBytes || now - this.progressAt >= limits.stallMs;
  }
}
