/**
 * Tool pinning: the digest of each tool definition the first time a profile exposes it, kept in
 * <data dir>/tool-pins.json across restarts. A later definition with another digest is marked
 * changed (with both versions, for a diff) until the user approves it; the profile decides
 * whether a changed tool is held back meanwhile (profile-config.ts).
 *
 * The file holds what servers said about their tools (names, descriptions, schemas), never
 * configuration: no env, headers or arguments. Known secret values are masked before anything
 * is stored, as in the log, in case a server echoes one in a description.
 */
import { readFile, rename } from 'node:fs/promises';
import { errCode } from '../fs/err-code.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { scrubText, type Logger } from '../log/logger.js';
import { definitionDiff, pinnedPart, type ToolDefinition } from './tool-digest.js';

/** `pending`: a tool of a server installed from the catalog, held until approved (docs/profiles.md, Tool pinning). */
export type PinStatus = 'new' | 'pinned' | 'changed' | 'pending';

interface Version {
  digest: string;
  definition: Record<string, unknown>;
}

interface PinRecord extends Version {
  firstSeen: string;
  approvedAt?: string;
  /** The current definition, when it differs from the approved one. */
  changed?: Version & { seenAt: string };
  /** First seen while its server was pending: nothing approved yet (`digest` is empty, `changed` holds what was seen). */
  pending?: true;
}

interface PinFile {
  version: 1;
  /** profile → server → tool name → record */
  profiles: Record<string, Record<string, Record<string, PinRecord>>>;
  /**
   * Servers just installed or updated from the catalog (server → when): the tools they list next,
   * in any profile, are recorded unapproved and held until approved.
   */
  pending?: Record<string, string>;
}

export interface ToolChange {
  server: string;
  tool: string;
  approvedAt: string;
  seenAt: string;
  diff: string;
}

export class ToolPins {
  private data: PinFile = { version: 1, profiles: {} };
  private saveTimer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(profile: string) => void>();
  private readonly approvals = new Set<(profile: string, approved: ReadonlyArray<{ server: string; tool: string }>) => void>();

  private constructor(
    readonly file: string,
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {}

  static async open(file: string, logger: Logger, now: () => Date = () => new Date()): Promise<ToolPins> {
    const pins = new ToolPins(file, logger, now);
    await pins.load();
    return pins;
  }

  /** Told the profile whose pins changed (a change seen, an approval). */
  onChange(listener: (profile: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Told each approval, with what it approved (the audit trail keeps them). */
  onApproved(listener: (profile: string, approved: ReadonlyArray<{ server: string; tool: string }>) => void): () => void {
    this.approvals.add(listener);
    return () => this.approvals.delete(listener);
  }

  /** Whether a profile's tool has an approved record (seen before, not waiting for a first approval). */
  known(profile: string, server: string, tool: string): boolean {
    const record = this.data.profiles[profile]?.[server]?.[tool];
    return record !== undefined && record.pending !== true;
  }

  /** Whether a server's next tools wait for approval. */
  isPending(server: string): boolean {
    return this.data.pending?.[server] !== undefined;
  }

  /**
   * Marks a server pending (an install or update from the catalog) and forgets its pins in every
   * profile, so the tools it lists next are held until approved. On disk before it returns, or it
   * throws (and changes nothing): the mark must be on disk before the entry that starts the
   * server is, else a restart would trust the new server's tools unapproved.
   *
   * Returns what puts things back as they were (the records forgotten, the earlier mark, or none),
   * for an install or update whose config write then fails.
   */
  async markPending(server: string): Promise<() => Promise<void>> {
    const previous = this.data.pending?.[server];
    const removed = new Map<string, Record<string, PinRecord>>();
    (this.data.pending ??= {})[server] = this.now().toISOString();
    for (const [profile, servers] of Object.entries(this.data.profiles)) {
      const records = servers[server];
      if (records === undefined) continue;
      removed.set(profile, records);
      delete servers[server];
    }
    const putBack = (): string[] => {
      if (previous === undefined) delete this.data.pending?.[server];
      else (this.data.pending ??= {})[server] = previous;
      const touched: string[] = [];
      for (const [profile, servers] of Object.entries(this.data.profiles)) {
        const before = removed.get(profile);
        // Records made meanwhile (pending ones, from a tools/list in between) go too.
        if (before !== undefined) servers[server] = before;
        else if (servers[server] !== undefined) delete servers[server];
        else continue;
        touched.push(profile);
      }
      return touched;
    };
    try {
      await this.writeNow();
    } catch (err) {
      putBack();
      throw new Error(`could not write ${this.file}: ${(err as Error).message}`);
    }
    for (const profile of removed.keys()) this.emit(profile);
    return async () => {
      for (const profile of putBack()) this.emit(profile);
      this.scheduleSave();
      await this.flush();
    };
  }

  /** Records a definition a profile exposes and says how it compares with the pinned one. */
  check(profile: string, server: string, tool: ToolDefinition, digest: string): PinStatus {
    const tools = ((this.data.profiles[profile] ??= {})[server] ??= {});
    const record = tools[tool.name];
    const at = this.now().toISOString();
    if (!record && this.isPending(server)) {
      // Nothing approved yet: the definition seen waits as a change from nothing.
      tools[tool.name] = { digest: '', definition: {}, firstSeen: at, pending: true, changed: { digest, definition: safeCopy(tool), seenAt: at } };
      this.scheduleSave();
      this.emit(profile);
      return 'pending';
    }
    if (record?.pending) {
      if (record.changed?.digest !== digest) {
        record.changed = { digest, definition: safeCopy(tool), seenAt: at };
        this.scheduleSave();
        this.emit(profile);
      }
      return 'pending';
    }
    if (!record) {
      tools[tool.name] = { digest, definition: safeCopy(tool), firstSeen: at };
      this.scheduleSave();
      return 'new';
    }
    if (record.digest === digest) {
      if (record.changed) {
        // The server went back to the approved definition.
        delete record.changed;
        this.scheduleSave();
        this.emit(profile);
      }
      return 'pinned';
    }
    if (record.changed?.digest !== digest) {
      record.changed = { digest, definition: safeCopy(tool), seenAt: at };
      this.logger.warn(`profile '${profile}': tool '${tool.name}' of '${server}' changed its definition; approve it with: patchbay profiles approve ${profile} ${server} ${tool.name}`);
      this.scheduleSave();
      this.emit(profile);
    }
    return 'changed';
  }

  /** Approves changed tools of a profile (all of them, one server's, or one tool). Returns what was approved. */
  approve(profile: string, server?: string, tool?: string): Array<{ server: string; tool: string }> {
    const approved: Array<{ server: string; tool: string }> = [];
    const at = this.now().toISOString();
    for (const [s, tools] of Object.entries(this.data.profiles[profile] ?? {})) {
      if (server !== undefined && s !== server) continue;
      for (const [name, record] of Object.entries(tools)) {
        if ((tool !== undefined && name !== tool) || !record.changed) continue;
        record.digest = record.changed.digest;
        record.definition = record.changed.definition;
        record.approvedAt = at;
        delete record.changed;
        delete record.pending;
        approved.push({ server: s, tool: name });
        // The first approval ends the server's pending mark: tools it lists later are pinned as usual.
        if (this.data.pending?.[s] !== undefined) delete this.data.pending[s];
      }
    }
    if (approved.length > 0) {
      this.scheduleSave();
      this.emit(profile);
      for (const listener of this.approvals) listener(profile, approved);
    }
    return approved;
  }

  /** Changed tools of a profile, each with a readable diff from the approved definition. */
  changes(profile: string): ToolChange[] {
    const out: ToolChange[] = [];
    for (const [server, tools] of Object.entries(this.data.profiles[profile] ?? {})) {
      for (const [tool, record] of Object.entries(tools)) {
        if (!record.changed) continue;
        out.push({
          server,
          tool,
          approvedAt: record.approvedAt ?? record.firstSeen,
          seenAt: record.changed.seenAt,
          diff: definitionDiff(`${server}/${tool}`, record.definition, record.changed.definition),
        });
      }
    }
    return out;
  }

  /** Writes pending changes now. */
  async flush(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
      this.saving = this.saving.then(() => this.write());
    }
    await this.saving;
  }

  private emit(profile: string): void {
    for (const listener of this.listeners) listener(profile);
  }

  private scheduleSave(): void {
    if (this.saveTimer) return;
    // Coalesces the records of one tools/list (one write for fifty new tools).
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.saving = this.saving.then(() => this.write());
    }, 50);
    this.saveTimer.unref();
  }

  /** Writes now, after any save under way, and rejects when the write fails (a save on the timer only logs). */
  private async writeNow(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
    }
    const attempt = this.saving.then(() => this.writeFile());
    this.saving = attempt.catch((err: unknown) => this.logWriteError(err));
    await attempt;
  }

  private async write(): Promise<void> {
    try {
      await this.writeFile();
    } catch (err) {
      this.logWriteError(err);
    }
  }

  private writeFile(): Promise<void> {
    return writeFileAtomic(this.file, JSON.stringify(this.data, null, 2) + '\n', { mode: 0o600 });
  }

  private logWriteError(err: unknown): void {
    this.logger.error(`could not save tool pins to ${this.file}: ${(err as Error).message}`);
  }

  private async load(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if (errCode(err) === 'ENOENT') return;
      throw err;
    }
    try {
      const parsed = JSON.parse(text) as PinFile;
      if (parsed.version !== 1 || typeof parsed.profiles !== 'object' || parsed.profiles === null) throw new Error('not a version 1 pin file');
      this.data = parsed;
    } catch (err) {
      // Starting over re-pins every tool as it is now; the unreadable file is kept beside it.
      const aside = `${this.file}.unreadable-${Date.now()}`;
      await rename(this.file, aside);
      this.logger.error(`tool pins in ${this.file} were unreadable (${(err as Error).message}); moved to ${aside}, starting over`);
    }
  }
}

function safeCopy(tool: ToolDefinition): Record<string, unknown> {
  return JSON.parse(scrubText(JSON.stringify(pinnedPart(tool)))) as Record<string, unknown>;
}
