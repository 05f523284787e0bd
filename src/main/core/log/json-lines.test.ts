// `--log-format json`: one JSON object per record and per line, scrubbed as the text lines are.
import { afterEach, describe, expect, it } from 'vitest';
import { addLogScrubber, createLogger, formatJsonLine, jsonLogSink, setLogLevel, setLogSink } from './logger.js';

afterEach(() => {
  setLogSink(undefined);
  setLogLevel('info');
});

describe('JSON log lines', () => {
  it('writes time, level, scope, message and fields, one record per line, scrubbed', () => {
    const lines: string[] = [];
    setLogSink(jsonLogSink((line) => lines.push(line)));
    setLogLevel('debug');
    const off = addLogScrubber((text) => text.split('hunter2-very-secret').join('[secret:PW]'));
    try {
      const log = createLogger('engine').child('hub');
      log.info('first line\nsecond line with hunter2-very-secret', { server: 'fx', auth: 'Bearer hunter2-very-secret', n: 3 });
      log.debug('no fields');
      log.error('empty fields', {});
    } finally {
      off();
    }
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line.endsWith('\n')).toBe(true);
      expect(line.slice(0, -1)).not.toContain('\n');
      expect(line).not.toContain('hunter2-very-secret');
    }
    const [first, second, third] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first).toEqual({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), level: 'info', scope: 'engine:hub', message: 'first line\nsecond line with [secret:PW]', fields: { server: 'fx', auth: 'Bearer [secret:PW]', n: 3 } });
    expect(second).toEqual({ time: expect.any(String), level: 'debug', scope: 'engine:hub', message: 'no fields' });
    expect(third).not.toHaveProperty('fields');
  });

  it('formats a record as it is given', () => {
    expect(formatJsonLine({ time: 0, level: 'warn', scope: 's', message: 'm', fields: { a: [1] } })).toBe('{"time":"1970-01-01T00:00:00.000Z","level":"warn","scope":"s","message":"m","fields":{"a":[1]}}\n');
  });
});
