import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseLogLevel, setLogLevel } from './logger.js';
import type * as LoggerModule from './logger.js';

/** A fresh copy of the logger module, evaluated with PATCHBAY_LOG_LEVEL set to `value`. */
async function loggerWithEnv(
  value: string,
): Promise<{ mod: typeof LoggerModule; stderr: string[] }> {
  const stderr: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
  vi.stubEnv('PATCHBAY_LOG_LEVEL', value);
  vi.resetModules();
  const mod = (await import('./logger.js')) as typeof LoggerModule;
  return { mod, stderr };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('log levels', () => {
  it('reads the four levels, forgiving case and spaces', () => {
    expect(parseLogLevel('debug')).toEqual({ ok: true, value: 'debug' });
    expect(parseLogLevel(' WARN ')).toEqual({ ok: true, value: 'warn' });
    expect(parseLogLevel('Error')).toEqual({ ok: true, value: 'error' });
  });

  it.each(['verbose', 'trace', '0', 'all'])(
    'refuses %j with a message that lists the levels',
    (word) => {
      const parsed = parseLogLevel(word);
      expect(parsed.ok).toBe(false);
      expect(!parsed.ok && parsed.message).toContain(
        `PATCHBAY_LOG_LEVEL="${word}" is not a log level (use debug, info, warn, error)`,
      );
    },
  );

  it('an invalid PATCHBAY_LOG_LEVEL does not turn debug logging on: it is refused once, and info applies', async () => {
    const { mod, stderr } = await loggerWithEnv('verbose');
    expect(stderr.join('')).toContain(
      '[log] warn: PATCHBAY_LOG_LEVEL="verbose" is not a log level',
    );
    const seen: string[] = [];
    mod.setLogSink((r) => seen.push(`${r.level}:${r.message}`));
    const log = mod.createLogger('t');
    log.debug('hidden');
    log.info('shown');
    expect(seen).toEqual(['info:shown']);
  });

  it('a valid PATCHBAY_LOG_LEVEL applies without a word', async () => {
    const { mod, stderr } = await loggerWithEnv('warn');
    expect(stderr).toEqual([]);
    const seen: string[] = [];
    mod.setLogSink((r) => seen.push(r.level));
    const log = mod.createLogger('t');
    log.info('hidden');
    log.warn('shown');
    expect(seen).toEqual(['warn']);
  });

  it('setLogLevel refuses a level that is not one (from untyped callers)', () => {
    expect(() => setLogLevel('verbose' as never)).toThrow(/not a log level: verbose/);
  });
});
