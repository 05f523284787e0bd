/** A FIFO of items ordered by a growing number (`seq`): O(1) push and shift, binary search by seq. */
export class SeqRing<T> {
  private items: T[] = [];
  private head = 0;

  constructor(private readonly seqOf: (item: T) => number = (item) => (item as { seq: number }).seq) {}

  get length(): number {
    return this.items.length - this.head;
  }

  get first(): T | undefined {
    return this.items[this.head];
  }

  get last(): T | undefined {
    return this.length === 0 ? undefined : this.items[this.items.length - 1];
  }

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.items[this.head++] = undefined as unknown as T;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Index (0 = oldest) of the first item with seq > `seq`. */
  indexAfter(seq: number): number {
    let lo = this.head;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.seqOf(this.items[mid]!) <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo - this.head;
  }

  at(index: number): T | undefined {
    return index < 0 ? undefined : this.items[this.head + index];
  }

  find(seq: number): T | undefined {
    const item = this.at(this.indexAfter(seq - 1));
    return item !== undefined && this.seqOf(item) === seq ? item : undefined;
  }

  /** Up to `limit` items with seq > `after`, oldest first. */
  after(after: number, limit: number, accept: (item: T) => boolean = () => true): T[] {
    const out: T[] = [];
    for (let i = this.head + this.indexAfter(after); i < this.items.length && out.length < limit; i++) {
      const item = this.items[i]!;
      if (accept(item)) out.push(item);
    }
    return out;
  }

  /** Newest first. */
  *reversed(): Generator<T> {
    for (let i = this.items.length - 1; i >= this.head; i--) yield this.items[i]!;
  }

  *[Symbol.iterator](): Generator<T> {
    for (let i = this.head; i < this.items.length; i++) yield this.items[i]!;
  }
}
