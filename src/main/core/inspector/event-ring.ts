/**
 * Stored events in seq order, read as legs: a pair (stored-event.ts) is one entry and reads as
 * two legs with consecutive seqs. The entries live in a Ring (lib/ring.ts): push and shift are
 * O(1) with no copying in steady state (a ring of a hundred thousand events shifts one for every
 * one it pushes); finding by seq is a binary search. `length` counts legs, as the API and the
 * limits count events.
 */
import { Ring } from '../lib/ring.js';
import type { CapturedLeg, StoredEvent } from './stored-event.js';

export class EventRing {
  /** Legs held (a pair is two). */
  length = 0;
  private readonly ring = new Ring<StoredEvent>();

  /** Entries held (a pair is one). */
  get entries(): number {
    return this.ring.length;
  }

  /** The oldest entry. */
  get first(): StoredEvent | undefined {
    return this.ring.first;
  }

  push(e: StoredEvent): void {
    this.ring.push(e);
    this.length += e.legs;
  }

  shift(): StoredEvent | undefined {
    const item = this.ring.shift();
    if (item) this.length -= item.legs;
    return item;
  }

  /** Position of the first entry with a leg whose seq is greater than `seq`. */
  private indexAfter(seq: number): number {
    return this.ring.firstIndexWhere((e) => e.lastSeq > seq);
  }

  /** The leg with this seq, if held. */
  find(seq: number): CapturedLeg | undefined {
    const e = this.ring.at(this.indexAfter(seq - 1));
    if (!e) return undefined;
    if (e.seq === seq) return e;
    return e.paired && e.seq + 1 === seq ? e.twin() : undefined;
  }

  /** Up to `limit` legs with seq > `after`, oldest first. */
  after(after: number, limit: number, accept: (leg: CapturedLeg) => boolean = () => true): CapturedLeg[] {
    const out: CapturedLeg[] = [];
    for (let i = this.indexAfter(after); i < this.ring.length && out.length < limit; i++) {
      const e = this.ring.at(i)!;
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
    for (const e of this.ring.reversed()) {
      if (e.paired) yield e.twin();
      yield e;
    }
  }

  *[Symbol.iterator](): Generator<CapturedLeg> {
    for (const e of this.ring) {
      yield e;
      if (e.paired) yield e.twin();
    }
  }
}
