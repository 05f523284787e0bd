/**
 * Children started ahead of demand, for a server with one child per session: a new session takes
 * one that is already booting (or booted) instead of waiting for a process to start.
 *
 * Sized to demand: the pool keeps as many spares as sessions were opened in the last `windowMs`
 * (at least one, at most `max`), so a server whose sessions come one a minute holds one spare, and
 * one that gets bursts holds up to `max`. When the opens stop, the target falls back and the spares
 * over it are stopped; a pool not taken from for `idleMs` stops its last spare too. A spare costs
 * a process (tens of MiB for a Node server) and its boot's CPU, which on a busy machine competes
 * with the sessions' own children: hence the cap, and no spare before the first session.
 */
import type { StdioUpstream } from './stdio-upstream.js';

export interface WarmPoolOptions {
  /** Starts one child (the runtime's spawn: secrets, env, bookkeeping). */
  spawn(): Promise<StdioUpstream>;
  /** Most spares at once. */
  max: number;
  /** The pool stops its spares when nothing was taken for this long. */
  idleMs: number;
  /** Sessions opened within this window set the target (default 5 s). */
  windowMs?: number;
}

export class WarmPool {
  private readonly spares: StdioUpstream[] = [];
  /** Spawns under way (spawn() awaits secrets and the environment first). */
  private starting = 0;
  /** When recent sessions took (or asked for) a child: the demand. */
  private takes: number[] = [];
  private lastTake = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly windowMs: number;

  constructor(private readonly options: WarmPoolOptions) {
    this.windowMs = options.windowMs ?? 5000;
  }

  /** Spares held now (booting or booted). */
  get size(): number {
    return this.spares.length;
  }

  /**
   * A spare for a new session, the longest-started first; undefined when none is left (the caller
   * spawns one itself). Either way the ask counts as demand; `refill()` after it.
   */
  take(): StdioUpstream | undefined {
    const now = Date.now();
    this.lastTake = now;
    this.takes.push(now);
    while (this.spares.length > 0) {
      const next = this.spares.shift()!;
      if (!next.closed) return next;
    }
    return undefined;
  }

  /**
   * Starts spares up to what demand calls for. Called once a session has its child, so that a
   * session's own child is never started behind a spare.
   */
  refill(): void {
    this.fill(Date.now());
  }

  /** Stops the spares; a spawn still under way is stopped when it lands. */
  close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = undefined;
    return Promise.all(this.spares.splice(0).map((c) => c.close())).then(() => undefined);
  }

  /** Sessions opened within the window, within [1, max]. */
  private target(now: number): number {
    let drop = 0;
    while (drop < this.takes.length && now - this.takes[drop]! > this.windowMs) drop++;
    if (drop > 0) this.takes = this.takes.slice(drop);
    return Math.min(this.options.max, Math.max(1, this.takes.length));
  }

  private fill(now: number): void {
    const target = this.target(now);
    while (!this.closed && this.spares.length + this.starting < target) {
      this.starting++;
      this.options.spawn().then(
        (child) => {
          this.starting--;
          if (this.closed) return void child.close();
          this.spares.push(child);
          this.timer ??= setInterval(() => this.shrink(), Math.min(this.windowMs, this.options.idleMs)).unref();
        },
        () => {
          // A failing spawn is the next session's to report (it spawns itself): not retried here.
          this.starting--;
        },
      );
    }
  }

  /** Drops spares over what demand now calls for, and all of them once the pool sat idle. */
  private shrink(): void {
    const now = Date.now();
    const keep = now - this.lastTake >= this.options.idleMs ? 0 : this.target(now);
    // The newest go first: the oldest spares have booted furthest.
    while (this.spares.length > keep) void this.spares.pop()!.close();
    if (this.spares.length === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}
