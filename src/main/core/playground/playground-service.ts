/**
 * The playground's sessions: opened through the hub on a configured server, or on a profile
 * (`@name`: the same ServerPort the hub serves at /mcp/@name, so the person sees the profile's
 * curated, prefixed lists), looked up by id for each call, and closed when idle (a person who
 * walked away leaves no server process behind) or when there are too many. A server that is not
 * configured (or disabled) gets no session: what runs is always what the config says (P28).
 */
import { randomBytes } from 'node:crypto';
import type { PlaygroundOpened, PlaygroundServerMessage } from '../../../shared/api/playground-contract.js';
import { ApiError } from '../api/api-registry.js';
import type { Session } from '../hub/session.js';
import { createLogger } from '../log/logger.js';
import { PlaygroundSession } from './playground-session.js';

const log = createLogger('playground');

export interface PlaygroundDeps {
  /** The hub's local session on a server or a profile (`hub.openLocalSession(id, 'playground')`, id `@name` for a profile). */
  openSession(serverId: string): Session | undefined;
  /** The inspector's id of a session (its observer key), when it is captured. */
  captureIdOf(key: object): string | undefined;
  version: string;
  serverMessage(payload: PlaygroundServerMessage): void;
  closed(payload: { session: string; reason: string }): void;
  /** Idle time before a session is closed (default 10 minutes). */
  idleMs?: number;
  /** Most sessions at once; opening one more closes the least recently used (default 16). */
  maxSessions?: number;
  sweepMs?: number;
}

export class PlaygroundService {
  private readonly sessions = new Map<string, PlaygroundSession>();
  private timer: NodeJS.Timeout | undefined;
  private readonly idleMs: number;
  private readonly maxSessions: number;

  constructor(private readonly deps: PlaygroundDeps) {
    this.idleMs = deps.idleMs ?? 10 * 60_000;
    this.maxSessions = deps.maxSessions ?? 16;
  }

  async open(serverId: string): Promise<PlaygroundOpened> {
    const session = this.deps.openSession(serverId);
    if (!session) {
      // `@name` is a profile's aggregated endpoint (the hub resolves it as it resolves /mcp/@name).
      const what = serverId.startsWith('@') ? `No profile '${serverId.slice(1)}' is configured` : `No server '${serverId}' is configured (or it is disabled)`;
      throw new ApiError('server_not_configured', `${what}; the playground opens sessions on configured servers and profiles only`);
    }
    const id = randomBytes(8).toString('hex');
    const pg = new PlaygroundSession(id, serverId, session, { serverMessage: (p) => this.deps.serverMessage(p) });
    try {
      const opened = await pg.initialize(this.deps.version, this.deps.captureIdOf(session));
      this.sessions.set(id, pg);
      this.startSweeping();
      while (this.sessions.size > this.maxSessions) await this.closeLeastRecent();
      return opened;
    } catch (err) {
      await pg.close();
      throw err;
    }
  }

  get(id: string): PlaygroundSession {
    const pg = this.sessions.get(id);
    if (!pg || !pg.live) {
      if (pg) void this.close(id, 'its server session ended');
      throw new ApiError('playground_not_found', `No open playground session '${id}' (it ends after ${Math.round(this.idleMs / 60_000)} minutes idle or when its server fails); open a new one`);
    }
    return pg;
  }

  async close(id: string, reason: string): Promise<boolean> {
    const pg = this.sessions.get(id);
    if (!pg) return false;
    this.sessions.delete(id);
    if (this.sessions.size === 0) this.stopSweeping();
    await pg.close().catch((err: Error) => log.warn(`closing playground session of '${pg.serverId}' failed: ${err.message}`));
    this.deps.closed({ session: id, reason });
    return true;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id, 'the hub is stopping')));
  }

  /** Closes sessions idle too long (nothing in flight) and those whose server session ended. */
  sweep(now = Date.now()): void {
    for (const [id, pg] of this.sessions) {
      if (!pg.live) void this.close(id, 'its server session ended');
      else if (pg.pending === 0 && now - pg.lastUsed >= this.idleMs) void this.close(id, `idle for ${Math.round(this.idleMs / 60_000)} minutes`);
    }
  }

  private async closeLeastRecent(): Promise<void> {
    let oldest: [string, PlaygroundSession] | undefined;
    for (const entry of this.sessions) if (!oldest || entry[1].lastUsed < oldest[1].lastUsed) oldest = entry;
    if (oldest) await this.close(oldest[0], `more than ${this.maxSessions} playground sessions were open`);
  }

  private startSweeping(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.sweep(), this.deps.sweepMs ?? 30_000);
    this.timer.unref();
  }

  private stopSweeping(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
