/**
 * The one ring buffer of the engine: a FIFO with O(1) push, shift and indexed access, no copying
 * in steady state (a circular array that doubles when full), and optionally bounded — a bounded
 * ring drops its oldest item to make room and hands it back. Everything that keeps "the last N"
 * or "what is queued" uses it: the capture queue, the inspector's event and exchange stores, an
 * SSE stream's replay store, the API's event backlog.
 */
export class Ring<T> {
  private items: Array<T | undefined>;
  private mask: number;
  private head = 0;
  private count = 0;

  /** `capacity`: at most this many items; pushing more drops the oldest. Default: unbounded. */
  constructor(readonly capacity = Infinity) {
    const size = Number.isFinite(capacity) ? Math.min(16, 2 ** Math.ceil(Math.log2(Math.max(1, capacity)))) : 16;
    this.items = new Array<T | undefined>(size).fill(undefined);
    this.mask = size - 1;
  }

  get length(): number {
    return this.count;
  }

  /** The oldest item. */
  get first(): T | undefined {
    return this.count === 0 ? undefined : this.items[this.head];
  }

  /** The newest item. */
  get last(): T | undefined {
    return this.count === 0 ? undefined : this.items[(this.head + this.count - 1) & this.mask];
  }

  /** Adds the newest item; on a full bounded ring, drops the oldest and returns it. */
  push(item: T): T | undefined {
    let dropped: T | undefined;
    if (this.count >= this.capacity) dropped = this.shift();
    if (this.count > this.mask) this.grow();
    this.items[(this.head + this.count) & this.mask] = item;
    this.count++;
    return dropped;
  }

  /** Removes and returns the oldest item. */
  shift(): T | undefined {
    if (this.count === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) & this.mask;
    this.count--;
    return item;
  }

  /** The item at a position, 0 being the oldest. */
  at(index: number): T | undefined {
    return index < 0 || index >= this.count ? undefined : this.items[(this.head + index) & this.mask];
  }

  /**
   * The position of the first item for which `test` holds, by binary search: `test` must be false
   * for a prefix of the ring and true after it (e.g. "seq > n" over items in seq order).
   * `length` when it holds for none.
   */
  firstIndexWhere(test: (item: T) => boolean): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (test(this.items[(this.head + mid) & this.mask]!)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Empties the ring. */
  clear(): void {
    this.items.fill(undefined);
    this.head = 0;
    this.count = 0;
  }

  /** Oldest first. */
  *[Symbol.iterator](): Generator<T> {
    for (let i = 0; i < this.count; i++) yield this.items[(this.head + i) & this.mask]!;
  }

  /** Newest first. */
  *reversed(): Generator<T> {
    for (let i = this.count - 1; i >= 0; i--) yield this.items[(this.head + i) & this.mask]!;
  }

  private grow(): void {
    const items = new Array<T | undefined>(this.items.length * 2).fill(undefined);
    for (let i = 0; i < this.count; i++) items[i] = this.items[(this.head + i) & this.mask];
    this.items = items;
    this.mask = items.length - 1;
    this.head = 0;
  }
}
