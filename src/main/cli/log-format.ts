/**
 * `patchbay serve --log-format text|json` (or `PATCHBAY_LOG_FORMAT`). `text`, the default, is
 * what a person reads on a terminal: the engine's log on stderr as `[scope] level: message`, and
 * serve's own banner. `json` is for a container's log collector: every line on stdout is one JSON
 * object (`time`, `level`, `scope`, `message`, `fields`), the engine's records and serve's own
 * notices alike, scrubbed of secrets as every log line is (core/log/logger.ts).
 */
import { createLogger, jsonLogSink, setLogSink, type Logger } from '../core/index.js';
import { UsageError, type CliIo, type CliOption, type OptionValues } from './command.js';
import { stringValue } from './parse-args.js';

export type LogFormat = 'text' | 'json';

export const LOG_FORMAT_OPTION: CliOption = {
  name: 'log-format',
  type: 'string',
  valueName: 'text|json',
  description: 'json: every log line on stdout as one JSON object, for a container (default text on stderr; or $PATCHBAY_LOG_FORMAT)',
};

/** The format asked for by `--log-format`, else `PATCHBAY_LOG_FORMAT`, else text. */
export function logFormatOf(io: CliIo, values: OptionValues, commandPath: string): LogFormat {
  const flag = stringValue(values, 'log-format', commandPath);
  const asked = flag ?? io.env.PATCHBAY_LOG_FORMAT;
  if (asked === undefined || asked.trim() === '') return 'text';
  const format = asked.trim().toLowerCase();
  if (format === 'text' || format === 'json') return format;
  throw new UsageError(`${flag !== undefined ? '--log-format' : 'PATCHBAY_LOG_FORMAT'} must be text or json`, commandPath);
}

/**
 * Where serve's own notices go: plain lines on stderr (text), or records of the engine's log in
 * the JSON format (json), which this also turns on for the whole process. `close` puts the log
 * back as it was (serve returns; tests run the CLI in-process).
 */
export interface ServeOutput {
  format: LogFormat;
  /** A notice for people: the banner's lines in text, one record with `fields` in json. */
  notice(level: 'info' | 'warn', text: string[], message: string, fields?: Record<string, unknown>): void;
  close(): void;
}

export function serveOutput(io: CliIo, format: LogFormat): ServeOutput {
  if (format === 'text') {
    return {
      format,
      notice: (_level, text) => void io.stderr.write(text.join('\n') + '\n'),
      close: () => undefined,
    };
  }
  setLogSink(jsonLogSink((line) => io.stdout.write(line)));
  const log: Logger = createLogger('serve');
  return {
    format,
    notice: (level, _text, message, fields) => log[level](message, fields),
    close: () => setLogSink(undefined),
  };
}
