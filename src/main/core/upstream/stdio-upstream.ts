/**
 * A stdio MCP server as a child process (PROTOCOL F: P29–P31). The child runs in its own process
 * group on POSIX so that shutdown reaches what it spawned too (`npx` → `node`, `uvx` → `python`):
 * no orphans.
 */
import type { ChildProcess } from 'node:child_process';
import { killProcessTree, spawnServer } from './child-process.js';
import { createLogger, type Logger } from '../log/logger.js';
import { ErrorCode } from '../../../shared/protocol.js';
import { exceedsDepth, MAX_JSON_DEPTH } from '../protocol/json-depth.js';
import { classify, errorResponse, isRequest, type JsonRpcMessage } from '../protocol/json-rpc.js';
import { lazyAnswer, LAZY_MIN } from '../protocol/lazy-answer.js';
import { LineReader } from '../protocol/line-reader.js';
import { bytesOf } from '../protocol/wire-bytes.js';
import { withTimeout } from '../protocol/timeout.js';
import type { UpstreamClosed, UpstreamConnection } from './upstream.js';

export interface StdioSpawnSpec {
  serverId: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string | undefined;
}

export interface StdioUpstreamOptions {
  /** Largest line accepted from the child. */
  maxLineBytes?: number;
  /** How many stderr lines to keep for error messages. */
  stderrTailLines?: number;
  /** Shutdown waits: after closing stdin, then after SIGTERM. */
  closeGraceMs?: number;
  termGraceMs?: number;
  logger?: Logger;
}

const DEFAULT_MAX_LINE = 64 * 1024 * 1024;

export class StdioUpstream implements UpstreamConnection {
  onmessage: UpstreamConnection['onmessage'];
  onclose: UpstreamConnection['onclose'];
  onevent: UpstreamConnection['onevent'];

  private readonly child: ChildProcess;
  private readonly log: Logger;
  private readonly stderrLines: string[] = [];
  private readonly stderrTailLines: number;
  private readonly exited: Promise<void>;
  private closing = false;
  private ended = false;
  private spawnError: Error | undefined;

  constructor(
    readonly spec: StdioSpawnSpec,
    private readonly options: StdioUpstreamOptions = {},
  ) {
    this.log = options.logger ?? createLogger(`stdio:${spec.serverId}`);
    this.stderrTailLines = options.stderrTailLines ?? 20;
    // cross-spawn under the hood: `npx`/`npm` .cmd shims start on Windows too (child-process.ts).
    this.child = spawnServer({ command: spec.command, args: spec.args, env: spec.env, ...(spec.cwd !== undefined ? { cwd: spec.cwd } : {}) });
    const reader = new LineReader(options.maxLineBytes ?? DEFAULT_MAX_LINE, {
      line: (text) => this.handleLine(text),
      oversize: (bytes) => this.log.warn(`dropped a ${bytes}-byte line from stdout: over the line limit`),
    }, true);
    this.child.stdout!.on('data', (chunk: Buffer) => reader.push(chunk));
    const errReader = new LineReader(64 * 1024, {
      line: (text) => this.handleStderr(text),
      oversize: () => this.handleStderr('[a stderr line over 64 KiB was dropped]'),
    });
    this.child.stderr!.on('data', (chunk: Buffer) => errReader.push(chunk));
    // EPIPE when the child dies while we write: the exit handler reports it, not this.
    this.child.stdin!.on('error', () => {});
    this.exited = new Promise((resolve) => {
      this.child.once('error', (err) => {
        this.spawnError = err;
        this.finish(null, null);
        resolve();
      });
      this.child.once('exit', (code, signal) => {
        this.finish(code, signal);
        resolve();
      });
    });
  }

  /** Settles when the child process has exited, however that happened. */
  exitedPromise(): Promise<void> {
    return this.exited;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get closed(): boolean {
    return this.ended || this.closing;
  }

  get stderrTail(): string {
    return this.stderrLines.join('\n').slice(-2000);
  }

  /**
   * Stops reading the child's stdout (its client is not keeping up). Lines of the chunk being
   * split now are still delivered (at most one pipe read, 64 KiB); after that the pipe fills and
   * the child's own writes wait: nothing is lost and nothing piles up here.
   */
  pause(): void {
    this.child.stdout!.pause();
  }

  resume(): void {
    this.child.stdout!.resume();
  }

  send(message: JsonRpcMessage, raw?: string): void {
    if (this.closed) return;
    // Raw text from an HTTP body may contain newlines (pretty-printed JSON); stdio framing forbids them.
    const line = raw !== undefined && !raw.includes('\n') && !raw.includes('\r') ? raw : JSON.stringify(message);
    this.child.stdin!.write(line + '\n');
  }

  private handleLine(text: string): void {
    // A large answer is routed on a skim and parsed when something reads its result (lazy-answer.ts).
    const lazy = text.length >= LAZY_MIN ? lazyAnswer(text, bytesOf(text)) : undefined;
    if (lazy !== undefined) return this.onmessage?.(lazy, text, false);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.log.warn('skipped a non-JSON line on stdout', { line: text.slice(0, 200) });
      return;
    }
    if (!classify(value)) {
      this.log.warn('skipped a line on stdout that is not a JSON-RPC message', { line: text.slice(0, 200) });
      return;
    }
    const message = value as JsonRpcMessage;
    if (exceedsDepth(value, text.length)) return this.tooDeep(message);
    this.onmessage?.(message, text, false);
  }

  /**
   * A message nested deeper than anything may walk it (json-depth.ts): it goes no further. An
   * answer becomes an error answer, written by the hub, so its request does not hang; a request of
   * the server's gets an error back; a notification is dropped.
   */
  private tooDeep(message: JsonRpcMessage): void {
    const why = `server '${this.spec.serverId}' sent JSON nested deeper than ${MAX_JSON_DEPTH} levels`;
    this.log.warn(`${why}: dropped`);
    if (isRequest(message)) {
      this.send(errorResponse(message.id, ErrorCode.InvalidRequest, `patchbay: your message nests JSON deeper than ${MAX_JSON_DEPTH} levels`));
    } else if (!('method' in message) && message.id !== null) {
      const answer = errorResponse(message.id, ErrorCode.InternalError, why, { server: this.spec.serverId });
      this.onmessage?.(answer, JSON.stringify(answer), true);
    }
  }

  private handleStderr(line: string): void {
    // A server's stderr is its log, not an error (P29).
    this.log.info(line);
    this.stderrLines.push(line);
    if (this.stderrLines.length > this.stderrTailLines) this.stderrLines.shift();
    this.onevent?.({ type: 'stderr', line });
  }

  private finish(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.ended) return;
    this.ended = true;
    if (this.closing) return;
    this.onclose?.(this.describeExit(code, signal));
  }

  private describeExit(code: number | null, signal: NodeJS.Signals | null): UpstreamClosed {
    const tail = this.stderrTail;
    const id = this.spec.serverId;
    let what: string;
    if (this.spawnError) {
      const e = this.spawnError as NodeJS.ErrnoException;
      what = e.code === 'ENOENT'
        ? `server '${id}' could not start: command not found: ${this.spec.command}`
        : `server '${id}' could not start: ${e.message}`;
    } else if (signal) {
      what = `server '${id}' was killed by ${signal}`;
    } else {
      what = `server '${id}' exited with code ${code}`;
    }
    const info: UpstreamClosed = { message: tail ? `${what}: ${tail}` : what, exitCode: code, signal };
    if (tail) info.stderrTail = tail;
    return info;
  }

  /** Close stdin, wait; SIGTERM the group, wait; SIGKILL the group (PROTOCOL P30). */
  async close(): Promise<void> {
    if (this.closing) return this.exited;
    this.closing = true;
    if (this.ended) return;
    this.child.stdin!.end();
    if (await this.waitExit(this.options.closeGraceMs ?? 1000)) return;
    this.signal('SIGTERM');
    if (await this.waitExit(this.options.termGraceMs ?? 2000)) return;
    this.signal('SIGKILL');
    await this.exited;
  }

  /** To the child and everything it started: its process group (POSIX), taskkill /T (Windows). */
  private signal(sig: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid !== undefined) void killProcessTree(pid, sig);
  }

  private waitExit(ms: number): Promise<boolean> {
    return withTimeout(this.exited.then(() => true), ms, () => false);
  }
}
