/**
 * Stored events in seq order (a FIFO with O(1) push and shift, binary search by seq), read as
 * legs: a pair (stored-event.ts) is one entry and reads as two legs with consecutive seqs.
 * `length` counts legs, as the API and the limits count events.
 */
import type { CapturedLeg, StoredEvent } from './stored-event.js';

export class EventRing {
  /** Legs held (a pair is two). */
  length = 0;
  private items: StoredEvent[] = [];
  private head = 0;

  /** The oldest entry. */
  get first(): StoredEvent | undefined {
    return this.items[this.head];
  }

  /** Entries (a pair is one). */
  get entries(): number {
    return this.items.length - this.head;
  }

  push(e: StoredEvent): void {
    this.items.push(e);
    this.length += e.legs;
  }

  shift(): StoredEvent | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.items[this.head++] = undefined as unknown as StoredEvent;
    this.length -= item.legs;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Array index of the first entry with a leg whose seq is greater than `seq`. */
  private indexAfter(seq: number): number {
    let lo = this.head;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.items[mid]!.lastSeq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The leg with this seq, if held. */
  find(seq: number): CapturedLeg | undefined {
    const e = this.items[this.indexAfter(seq - 1)];
    if (e === undefined) return undefined;
    if (e.seq === seq) return e;
    return e.paired && e.seq + 1 === seq ? e.twin() : undefined;
  }

  /** Up to `limit` legs with seq > `after`, oldest first. */
  after(after: number, limit: number, accept: (leg: CapturedLeg) => boolean = () => true): CapturedLeg[] {
    const out: CapturedLeg[] = [];
    for (let i = this.indexAfter(after); i < this.items.length && out.length < limit; i++) {
      const e = this.items[i]!;
      if (e.seq > after && accept(e)) out.push(e);
      if (e.paired && out.length < limit) {
        const twin = e.twin();
        if (accept(twin)) out.push(twin);
      }
    }
    return out;
  }

  /** Newest first. */
  *reversed(): Generator<CapturedLeg> {
    for (let i = this.items.length - 1; i >= this.head; i--) {
      const e = this.items[i]!;
      if (e.paired) yield e.twin();
      yield e;
    }
  }

  *[Symbol.iterator](): Generator<CapturedLeg> {
    for (let i = this.head; i < this.items.length; i++) {
      const e = this.items[i]!;
      yield e;
      if (e.paired) yield e.twin();
    }
  }
}
