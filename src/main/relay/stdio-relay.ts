/**
 * The stdio half of the relay: newline-delimited JSON-RPC on stdin and stdout (PROTOCOL P29),
 * nothing but JSON-RPC on stdout, and a clean end (P30): on stdin EOF, on the parent's death, on
 * a signal, or when stdout closes, the session is deleted on the hub and the relay returns.
 */
import type { LineOutput, Logger, StdioDoor } from '../core/index.js';
import { LineReader } from '../core/index.js';
import { closeIdleSockets } from './hub-http.js';
import { parseOutgoing } from './outgoing.js';
import { OutputFlow, type RelayOutput } from './output-flow.js';
import { RelaySession, type EndpointSource } from './relay-session.js';

export interface StdioRelayOptions {
  stdin: NodeJS.ReadableStream;
  stdout: RelayOutput;
  endpoint: EndpointSource;
  logger: Logger;
  /** Poll for a changed parent pid (the parent died) every this many ms; 0 turns it off. Default 1000. */
  parentPollMs?: number;
  /** Signals that end the relay cleanly. Default SIGINT, SIGTERM, SIGHUP. */
  signals?: NodeJS.Signals[];
  /** Stream resumption delay when the server gives none (ms). */
  defaultRetryMs?: number;
  /**
   * DELETE the session on the hub when the relay ends (default true). `relay --url` closes its
   * embedded hub right after, which ends the session (and the remote's) without the extra trip.
   */
  deleteSession?: boolean;
  /**
   * The hub's stdio door, when the hub runs in this process (`relay --url`): given the relay's
   * output, it takes the legacy lines in place of HTTP (relay-session.ts). Undefined: HTTP.
   */
  openDoor?(output: LineOutput): StdioDoor | undefined;
}

export type RelayEnd = 'stdin-closed' | 'parent-exited' | 'stdout-closed' | NodeJS.Signals;

/** Largest line accepted from the client; the hub's own body limit is lower by default. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** How long answers still on their way are awaited after stdin closed. */
const EOF_GRACE_MS = 2000;

export async function runStdioRelay(options: StdioRelayOptions): Promise<RelayEnd> {
  const { stdin, stdout, logger } = options;
  let stdoutOpen = true;
  const flow = new OutputFlow(stdout);
  const door = options.openDoor?.({
    write: (line) => {
      if (stdoutOpen) flow.write(line);
      return !flow.blocked;
    },
    get writableLength() {
      return stdout.writableLength ?? 0;
    },
    onDrain: (listener) => void flow.onDrain(listener),
  });
  if (options.openDoor) logger.debug(door ? '2025-era lines go through the hub’s stdio door, in this process' : 'the hub offers no stdio door for this server: 2025-era lines go over HTTP');
  const session = new RelaySession({
    endpoint: options.endpoint,
    logger,
    flow,
    ...(door ? { door } : {}),
    ...(options.defaultRetryMs !== undefined ? { defaultRetryMs: options.defaultRetryMs } : {}),
    deliver: (json) => {
      if (stdoutOpen) flow.write(json + '\n');
    },
  });
  // The hub is found (or started) on the first message, not before: a relay whose client goes
  // away without a word must not leave a hub behind. Clients write initialize at once anyway.

  const ended = await new Promise<RelayEnd>((resolve) => {
    const cleanups: Array<() => void> = [];
    let done = false;
    const finish = (why: RelayEnd): void => {
      if (done) return;
      done = true;
      for (const undo of cleanups) undo();
      resolve(why);
    };
    const reader = new LineReader(MAX_LINE_BYTES, {
      line: (text) => {
        const parsed = parseOutgoing(text);
        if (!parsed.ok) return logger.warn(parsed.message);
        void session.send(parsed.value);
      },
      oversize: (bytes) => logger.warn(`skipped a ${bytes}-byte line from the client (over the ${MAX_LINE_BYTES}-byte limit)`),
    });
    const onData = (chunk: Buffer | string): void => reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    const onEnd = (): void => finish('stdin-closed');
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('close', onEnd);
    stdin.once('error', onEnd);
    cleanups.push(() => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      stdin.off('error', onEnd);
      stdin.pause();
    });

    const onStdoutError = (): void => {
      stdoutOpen = false;
      finish('stdout-closed');
    };
    stdout.on?.('error', onStdoutError);
    cleanups.push(() => stdout.off?.('error', onStdoutError));

    for (const signal of options.signals ?? (['SIGINT', 'SIGTERM', 'SIGHUP'] as NodeJS.Signals[])) {
      const onSignal = (): void => finish(signal);
      process.on(signal, onSignal);
      cleanups.push(() => process.off(signal, onSignal));
    }

    const pollMs = options.parentPollMs ?? 1000;
    if (pollMs > 0 && process.platform !== 'win32') {
      // Node has no parent-death signal; a changed ppid means we were re-parented: the parent died.
      const parent = process.ppid;
      const timer = setInterval(() => {
        if (process.ppid !== parent) finish('parent-exited');
      }, pollMs);
      timer.unref();
      cleanups.push(() => clearInterval(timer));
    }
  });

  // A client that wrote its last requests and closed stdin (`printf … | patchbay relay x`) still
  // gets their answers, briefly; a signal or a dead parent means nobody is listening any more.
  if (ended === 'stdin-closed') await session.drain(EOF_GRACE_MS);
  logger.debug(`relay ending (${ended})`);
  await session.close({ deleteSession: options.deleteSession !== false });
  closeIdleSockets();
  return ended;
}
