/**
 * Scoped logger for the engine. Never use bare `console` in main-process code: every line
 * goes through here so that secrets can be scrubbed in one place and tests can capture logs.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(scope: string): Logger;
}

export interface LogRecord {
  time: number;
  level: LogLevel;
  scope: string;
  message: string;
  fields?: Record<string, unknown>;
}

export type LogSink = (record: LogRecord) => void;

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/**
 * Reads a log level as a person writes it (`PATCHBAY_LOG_LEVEL`, case and spaces forgiven).
 * Anything else is refused with a message that lists the levels: an unknown word used to turn
 * debug logging on (issue 17 item 11), since no level compared below it.
 */
export function parseLogLevel(text: string): { ok: true; value: LogLevel } | { ok: false; message: string } {
  const level = text.trim().toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) return { ok: true, value: level as LogLevel };
  return { ok: false, message: `PATCHBAY_LOG_LEVEL=${JSON.stringify(text)} is not a log level (use ${LOG_LEVELS.join(', ')}); logging at info` };
}

let sink: LogSink = defaultSink;
let scrubbers: Array<(text: string) => string> = [];
let threshold: LogLevel = 'info';
const fromEnv = process.env.PATCHBAY_LOG_LEVEL;
if (fromEnv !== undefined && fromEnv !== '') {
  const parsed = parseLogLevel(fromEnv);
  // A bad setting must not stop a relay (clients start it unattended): say so once, on stderr
  // where the client keeps the relay's log, and keep the default.
  if (parsed.ok) threshold = parsed.value;
  else defaultSink({ time: Date.now(), level: 'warn', scope: 'log', message: parsed.message });
}

function defaultSink(record: LogRecord): void {
  const fields = record.fields && Object.keys(record.fields).length > 0 ? ' ' + JSON.stringify(record.fields) : '';
  process.stderr.write(`[${record.scope}] ${record.level}: ${record.message}${fields}\n`);
}

/**
 * A record as one line of JSON (`patchbay serve --log-format json`, for a container's log
 * collector): `time` (ISO 8601), `level`, `scope`, `message`, and `fields` when there are any.
 * Records reach a sink already scrubbed (emit), so this line masks what the text line masks.
 */
export function formatJsonLine(record: LogRecord): string {
  const line: Record<string, unknown> = { time: new Date(record.time).toISOString(), level: record.level, scope: record.scope, message: record.message };
  if (record.fields && Object.keys(record.fields).length > 0) line.fields = record.fields;
  return JSON.stringify(line) + '\n';
}

/** A sink that writes each record as one JSON line (formatJsonLine) with `write`. */
export function jsonLogSink(write: (line: string) => void): LogSink {
  return (record) => write(formatJsonLine(record));
}

/** Replace where log records go (tests capture them; the desktop app writes a file). */
export function setLogSink(next: LogSink | undefined): void {
  sink = next ?? defaultSink;
}

export function setLogLevel(level: LogLevel): void {
  // Typed, but also called from plain JavaScript (tests, scripts): an unknown level is refused.
  if (!(level in order)) throw new Error(`not a log level: ${String(level)} (use ${LOG_LEVELS.join(', ')})`);
  threshold = level;
}

/**
 * Register a function that removes secrets from text. The secret store registers one that
 * masks every known secret value, so a value that slips into an error message is still hidden.
 * Returns an unregister function.
 */
export function addLogScrubber(scrub: (text: string) => string): () => void {
  scrubbers.push(scrub);
  return () => {
    scrubbers = scrubbers.filter((s) => s !== scrub);
  };
}

export function scrubText(text: string): string {
  let out = text;
  for (const scrub of scrubbers) out = scrub(out);
  return out;
}

function emit(scope: string, level: LogLevel, message: string, fields?: Record<string, unknown>): void {
  if (order[level] < order[threshold]) return;
  const record: LogRecord = { time: Date.now(), level, scope, message: scrubText(message) };
  if (fields) record.fields = JSON.parse(scrubText(JSON.stringify(fields))) as Record<string, unknown>;
  sink(record);
}

export function createLogger(scope: string): Logger {
  return {
    debug: (m, f) => emit(scope, 'debug', m, f),
    info: (m, f) => emit(scope, 'info', m, f),
    warn: (m, f) => emit(scope, 'warn', m, f),
    error: (m, f) => emit(scope, 'error', m, f),
    child: (sub) => createLogger(`${scope}:${sub}`),
  };
}
