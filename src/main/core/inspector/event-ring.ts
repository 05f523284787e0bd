/**
 * Stored events in seq order, read as legs: a pair (stored-event.ts) is one entry and reads as
 * two legs with consecutive seqs. A circular buffer that doubles when full: push and shift are
 * O(1) with no copying in steady state (a ring of a hundred thousand events shifts one for every
 * one it pushes); finding by seq is a binary search. `length` counts legs, as the API and the
 * limits count events.
 */
import type { CapturedLeg, StoredEvent } from './stored-event.js';

export class EventRing {
  /** Legs held (a pair is two). */
  length = 0;
  /** Entries held (a pair is one). */
  entries = 0;
  private items: Array<StoredEvent | undefined> = new Array<StoredEvent | undefined>(16).fill(undefined);
  private mask = 15;
  private head = 0;

  /** The oldest entry. */
  get first(): StoredEvent | undefined {
    return this.entries === 0 ? undefined : this.items[this.head];
  }

  push(e: StoredEvent): void {
    if (this.entries > this.mask) this.grow();
    this.items[(this.head + this.entries) & this.mask] = e;
    this.entries++;
    this.length += e.legs;
  }

  shift(): StoredEvent | undefined {
    if (this.entries === 0) return undefined;
    const item = this.items[this.head]!;
    this.items[this.head] = undefined;
    this.head = (this.head + 1) & this.mask;
    this.entries--;
    this.length -= item.legs;
    return item;
  }

  /** The entry at a position (0: the oldest). */
  private at(i: number): StoredEvent {
    return this.items[(this.head + i) & this.mask]!;
  }

  /** Position of the first entry with a leg whose seq is greater than `seq`. */
  private indexAfter(seq: number): number {
    let lo = 0;
    let hi = this.entries;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(mid).lastSeq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The leg with this seq, if held. */
  find(seq: number): CapturedLeg | undefined {
    const i = this.indexAfter(seq - 1);
    if (i >= this.entries) return undefined;
    const e = this.at(i);
    if (e.seq === seq) return e;
    return e.paired && e.seq + 1 === seq ? e.twin() : undefined;
  }

  /** Up to `limit` legs with seq > `after`, oldest first. */
  after(after: number, limit: number, accept: (leg: CapturedLeg) => boolean = () => true): CapturedLeg[] {
    const out: CapturedLeg[] = [];
    for (let i = this.indexAfter(after); i < this.entries && out.length < limit; i++) {
      const e = this.at(i);
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
    for (let i = this.entries - 1; i >= 0; i--) {
      const e = this.at(i);
      if (e.paired) yield e.twin();
      yield e;
    }
  }

  *[Symbol.iterator](): Generator<CapturedLeg> {
    for (let i = 0; i < this.entries; i++) {
      const e = this.at(i);
      yield e;
      if (e.paired) yield e.twin();
    }
  }

  private grow(): void {
    const items = new Array<StoredEvent | undefined>(this.items.length * 2).fill(undefined);
    for (let i = 0; i < this.entries; i++) items[i] = this.at(i);
    this.items = items;
    this.mask = items.length - 1;
    this.head = 0;
  }
}
