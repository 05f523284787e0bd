/**
 * The lookups the exchange tracker keeps per requester (client, server, hub): its open exchanges
 * by request id, and the ones its answers closed recently (for late answers).
 */
import type { CaptureOrigin } from '../../../shared/api/inspector-contract.js';
import { Ring } from '../lib/ring.js';

export type Id = string | number;

/** What the lists need of an exchange. */
interface Keyed {
  readonly requestId: Id;
}

const MAX_RECENT = 256;

/** One of something per requester, picked by comparisons (a keyed lookup by name is slower). */
export class ByRequester<T> {
  constructor(
    readonly client: T,
    readonly server: T,
    readonly hub: T,
  ) {}
  of(who: CaptureOrigin): T {
    return who === 'client' ? this.client : who === 'server' ? this.server : this.hub;
  }
}

/**
 * A requester's open exchanges. Few are open at a time, so an array, scanned (a Map rehashed
 * every few calls as entries came and went); past INDEXED it also keeps a Map by id, so a client
 * with thousands in flight is not scanned. Ids are unique among open exchanges of a requester.
 */
const INDEXED = 32;
export class OpenList<X extends Keyed> {
  private items: X[] = [];
  private index: Map<Id, X> | undefined;

  get(id: Id): X | undefined {
    if (this.index !== undefined) return this.index.get(id);
    const items = this.items;
    for (let i = items.length - 1; i >= 0; i--) if (items[i]!.requestId === id) return items[i];
    return undefined;
  }

  add(x: X): void {
    this.items.push(x);
    if (this.index !== undefined) this.index.set(x.requestId, x);
    else if (this.items.length > INDEXED) this.index = new Map(this.items.map((y) => [y.requestId, y]));
  }

  delete(x: X): void {
    const items = this.items;
    const i = items.lastIndexOf(x);
    if (i < 0) return;
    const last = items.pop()!;
    if (i < items.length) items[i] = last;
    if (this.index !== undefined) {
      this.index.delete(x.requestId);
      if (items.length === 0) this.index = undefined;
    }
  }

  values(): readonly X[] {
    return this.items;
  }
}

/**
 * The last MAX_RECENT exchanges a requester's answers closed, newest found first. Looked up only
 * when no open exchange matches (late answers), so a scan; adding is one slot write.
 */
export class RecentRing<X extends Keyed> {
  private readonly ring = new Ring<X>(MAX_RECENT);

  add(x: X): void {
    this.ring.push(x);
  }

  find(id: Id): X | undefined {
    for (let i = this.ring.length - 1; i >= 0; i--) {
      const x = this.ring.at(i)!;
      if (x.requestId === id) return x;
    }
    return undefined;
  }
}
