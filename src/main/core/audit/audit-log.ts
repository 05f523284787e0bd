/**
 * The audit trail (issue 25; docs/audit.md): an append-only log of what clients did through the
 * hub, one JSON line per event, each carrying the SHA-256 of the line before it (`prev`) and a
 * sequence number, so a line edited, removed or moved breaks the chain where it happened, and
 * `patchbay audit verify` names that line. A file over `maxBytes` is rotated: the next file's
 * first line chains to the last line of the one before (`audit.1.jsonl`, `audit.2.jsonl`, … are
 * the older files, oldest first; Patchbay never deletes them), so rotation keeps the chain across
 * files.
 *
 * Lines are written in batches, off the hub's path (the exchange feed calls `append` in the
 * capture pipeline's drain; a timer flushes): an audit line never delays a call. What is kept:
 * who (client), where (server or profile), what (method, tool or prompt or URI), the outcome and
 * the time — never arguments or results.
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../log/logger.js';

export interface AuditEvent {
  /** ISO time. */
  t: string;
  /** `call` (a client's request), `approve` (a changed tool approved), `policy` (a decision: a blocked secret, a denied host). */
  kind: 'call' | 'approve' | 'policy';
  /**
   * Who: `token:<label>` (a client token), `relay` or `relay/token:<label>` (`patchbay relay`, with
   * the hub token or a client token), `ui` (the Patchbay UI's playground), `api` (an approval made
   * through the API), or the client's own name with the hub token (`hub-token:<name>`).
   */
  client: string;
  /** The client as it names itself (its clientInfo), when that is not already in `client`. */
  name?: string;
  /** The server id, or `@profile`. */
  server: string;
  method?: string;
  /** The tool, prompt or resource URI. */
  target?: string;
  /** `ok`, or why not (`error:jsonrpc`, `error:tool_error`, `cancelled`, `timeout`, …), or the decision. */
  outcome: string;
  ms?: number;
  /** Only with `audit.content: true` (an opt-in): the request's params and the answer, as redacted JSON text (the inspector's redaction). */
  params?: string;
  result?: string;
}

export interface AuditLine extends AuditEvent {
  seq: number;
  /** SHA-256 (hex) of the previous line's text; `genesis` for the very first line. */
  prev: string;
}

export const AUDIT_FILE = 'audit.jsonl';
const GENESIS = 'genesis';
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
const FLUSH_MS = 200;
const RETRY_MS = 5000;

export function lineHash(line: string): string {
  return createHash('sha256').update(line).digest('hex');
}

export class AuditLog {
  private pending: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** The last write failed (said once, until one works again). */
  private failing = false;
  private closed = false;
  /** Closed and written: nothing more is taken. */
  private done = false;

  private constructor(
    private readonly file: string,
    private seq: number,
    private prev: string,
    private readonly logger: Logger,
    private readonly maxBytes: number,
  ) {}

  /** Opens the log in `dir`, continuing its chain from its last line. */
  static async open(dir: string, logger: Logger, maxBytes = DEFAULT_MAX_BYTES): Promise<AuditLog> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, AUDIT_FILE);
    let seq = 0;
    let prev = GENESIS;
    const older = await rotatedFiles(dir);
    const last = (await readLines(file)).at(-1) ?? (older.length > 0 ? (await readLines(older.at(-1)!)).at(-1) : undefined);
    if (last !== undefined) {
      prev = lineHash(last);
      try {
        seq = (JSON.parse(last) as { seq?: number }).seq ?? 0;
      } catch {
        logger.warn(`the last line of ${file} is not JSON: the chain continues from its hash (audit verify will name it)`);
      }
    }
    return new AuditLog(file, seq, prev, logger, maxBytes);
  }

  append(event: AuditEvent): void {
    // After close: a report that was still on its way (a secret check finishing as the hub stops).
    // Dropped whole — seq and prev do not move, and the next start continues from the last line
    // on disk — so the chain stays intact. Said, so a missing line is never a mystery.
    if (this.done) {
      this.logger.warn(`an audit line came after the trail was closed (the hub was stopping) and was not written: ${event.kind} ${event.server} ${event.outcome}`);
      return;
    }
    const line = JSON.stringify({ seq: ++this.seq, ...event, prev: this.prev });
    this.prev = lineHash(line);
    this.pending.push(line);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Writes what is pending (in order: one write at a time). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const lines = this.pending;
    this.pending = [];
    if (lines.length === 0) return this.writing;
    this.writing = this.writing.then(async () => {
      try {
        await this.rotateIfFull();
        await appendFile(this.file, `${lines.join('\n')}\n`, { mode: 0o600 });
        if (this.failing) this.logger.info(`audit lines are written to ${this.file} again`);
        this.failing = false;
      } catch (err) {
        // Kept, in order, for the next try: a line dropped would break the chain after it.
        this.pending = [...lines, ...this.pending];
        if (!this.closed) this.timer ??= setTimeout(() => void this.flush(), RETRY_MS).unref();
        if (!this.failing) this.logger.error(`could not write audit lines to ${this.file} (${(err as Error).message}); they are kept and written when it works again`);
        this.failing = true;
      }
    });
    return this.writing;
  }

  async close(): Promise<void> {
    this.closed = true;
    // Lines may still come while the last ones are written (a check finishing): write those too.
    for (let round = 0; round < 3; round++) {
      await this.flush();
      if (this.pending.length === 0 || this.failing) break;
    }
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length > 0) this.logger.error(`${this.pending.length} audit line(s) could not be written to ${this.file} before the hub stopped; they are lost, and \`patchbay audit verify\` will name the break`);
  }

  private async rotateIfFull(): Promise<void> {
    const size = await stat(this.file).then((s) => s.size, () => 0);
    if (size < this.maxBytes) return;
    // The full file becomes the newest of the older ones; its last line is what the new file's first chains to.
    const older = await rotatedFiles(path.dirname(this.file));
    await rename(this.file, path.join(path.dirname(this.file), `audit.${older.length + 1}.jsonl`));
  }
}

/** The rotated files, oldest first (`audit.1.jsonl`, `audit.2.jsonl`, …). */
export async function rotatedFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .map((n) => /^audit\.(\d+)\.jsonl$/.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((m) => path.join(dir, m[0]));
}

async function readLines(file: string): Promise<string[]> {
  try {
    return (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '');
  } catch {
    return [];
  }
}

export interface VerifyResult {
  ok: boolean;
  lines: number;
  /** How many files of the trail were read (the rotated ones and the current one, when they exist). */
  files: number;
  /** The first broken place: the file and 1-based line, and what is wrong. */
  problem?: { file: string; line: number; message: string };
}

/**
 * Checks the chain through the older files and the current one, line by line. The very first
 * line must start the chain (`prev: "genesis"`, seq 1) unless older files were deleted by hand
 * (then the oldest file left may start anywhere: `startsMidway`).
 */
export async function verifyAudit(dir: string): Promise<VerifyResult> {
  const files = [...(await rotatedFiles(dir)), path.join(dir, AUDIT_FILE)];
  let prev: string | undefined;
  let seq: number | undefined;
  let before: { file: string; line: number } | undefined;
  let count = 0;
  let read = 0;
  for (const [index, f] of files.entries()) {
    const lines = await readLines(f);
    if (lines.length > 0) read++;
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!;
      const at = { file: f, line: i + 1 };
      let parsed: Partial<AuditLine>;
      try {
        parsed = JSON.parse(text) as Partial<AuditLine>;
      } catch {
        return { ok: false, lines: count, files: read, problem: { ...at, message: 'not a JSON line: it was edited' } };
      }
      if (prev === undefined || seq === undefined || before === undefined) {
        // The first line of all starts the chain, unless older files were deleted by hand (a later rotated file is the oldest left).
        const midway = index < files.length - 1 && !path.basename(f).startsWith('audit.1.');
        if (parsed.prev !== GENESIS && !midway) return { ok: false, lines: count, files: read, problem: { ...at, message: `it does not start the chain (seq ${parsed.seq ?? '?'}): the line(s) before it were removed` } };
        if (parsed.prev === GENESIS && parsed.seq !== 1) return { ok: false, lines: count, files: read, problem: { ...at, message: `it starts the chain with seq ${parsed.seq ?? '?'}, not 1: it was edited` } };
      } else if (typeof parsed.seq !== 'number' || parsed.seq <= seq) {
        return { ok: false, lines: count, files: read, problem: { ...at, message: `seq ${parsed.seq ?? '?'} after ${seq}: lines were moved or repeated` } };
      } else if (parsed.seq > seq + 1) {
        const expected = seq + 1;
        const later = lines.findIndex((l, j) => j > i && l.includes(`"seq":${expected},`));
        if (later !== -1) return { ok: false, lines: count, files: read, problem: { ...at, message: `lines were moved: seq ${parsed.seq} stands where seq ${expected} belongs (seq ${expected} is at line ${later + 1})` } };
        return { ok: false, lines: count, files: read, problem: { ...at, message: `${parsed.seq - expected} line(s) missing before it (seq ${expected}–${parsed.seq - 1})` } };
      } else if (parsed.prev !== prev) {
        // Consecutive, yet the chain breaks: the line before this one is not what was written.
        return { ok: false, lines: count, files: read, problem: { ...before, message: `it was edited: the next line recorded another hash of it (seq ${seq})` } };
      }
      prev = lineHash(text);
      seq = parsed.seq;
      before = at;
      count++;
    }
  }
  return { ok: true, lines: count, files: read };
}
