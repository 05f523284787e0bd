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

let sink: LogSink = defaultSink;
let threshold: LogLevel = (process.env.PATCHBAY_LOG_LEVEL as LogLevel | undefined) ?? 'info';
let scrubbers: Array<(text: string) => string> = [];

function defaultSink(record: LogRecord): void {
  const fields = record.fields && Object.keys(record.fields).length > 0 ? ' ' + JSON.stringify(record.fields) : '';
  process.stderr.write(`[${record.scope}] ${record.level}: ${record.message}${fields}\n`);
}

/** Replace where log records go (tests capture them; the desktop app writes a file). */
export function setLogSink(next: LogSink | undefined): void {
  sink = next ?? defaultSink;
}

export function setLogLevel(level: LogLevel): void {
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
