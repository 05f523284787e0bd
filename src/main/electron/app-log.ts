/**
 * The desktop app's log: every engine and shell log line (already scrubbed of secrets by the
 * logger) goes to `<data dir>/logs/desktop.log` (one previous file kept as `.1` past 5 MiB) and
 * to stderr. Uncaught exceptions and unhandled rejections are logged there instead of
 * vanishing; native crash dumps go to `<data dir>/logs/crashes` (main.ts, crashReporter).
 */
import { createWriteStream, mkdirSync, renameSync, statSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { setLogSink, type Logger, type LogRecord } from '../core/index.js';
import { dataPaths } from '../core/index.js';

const MAX_LOG_BYTES = 5 * 1024 * 1024;

export function desktopLogFile(dataDir: string): string {
  return path.join(dataPaths(dataDir).logsDir, 'desktop.log');
}

export function crashDumpsDir(dataDir: string): string {
  return path.join(dataPaths(dataDir).logsDir, 'crashes');
}

export function formatLogRecord(record: LogRecord): string {
  const fields = record.fields && Object.keys(record.fields).length > 0 ? ` ${JSON.stringify(record.fields)}` : '';
  return `${new Date(record.time).toISOString()} ${record.level} [${record.scope}] ${record.message}${fields}\n`;
}

/** Routes the logger to the log file (and stderr). Returns a function that flushes and closes it. */
export function startAppLog(dataDir: string, mirror: (line: string) => void = (line) => process.stderr.write(line)): () => Promise<void> {
  const file = desktopLogFile(dataDir);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  rotate(file);
  const stream: WriteStream = createWriteStream(file, { flags: 'a', mode: 0o600 });
  stream.on('error', (err) => mirror(`patchbay: cannot write ${file}: ${err.message}\n`));
  setLogSink((record) => {
    const line = formatLogRecord(record);
    stream.write(line);
    mirror(line);
  });
  return () =>
    new Promise<void>((resolve) => {
      setLogSink(undefined);
      stream.end(resolve);
    });
}

/** Logs what would otherwise be lost; the app keeps running (the tray stays usable). */
export function logUncaught(proc: NodeJS.EventEmitter, logger: Logger): void {
  proc.on('uncaughtException', (err: Error) => logger.error(`uncaught exception: ${err.stack ?? err.message}`));
  proc.on('unhandledRejection', (reason: unknown) => logger.error(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`));
}

function rotate(file: string): void {
  try {
    if (statSync(file).size > MAX_LOG_BYTES) renameSync(file, `${file}.1`);
  } catch {
    // no log yet
  }
}
