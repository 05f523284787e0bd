/** Shared by the registry tests: the fixture registry (closed after the test) and a logger that keeps what it is told. */
import type { Logger } from '../../src/main/core/log/logger.js';
import { startFixtureRegistry } from '../fixtures/registry/fixture-registry.mjs';
import { onCleanup } from '../helpers/cleanup.js';

export type FixtureRegistry = Awaited<ReturnType<typeof startFixtureRegistry>>;

export async function fixtureRegistry(options?: Parameters<typeof startFixtureRegistry>[0]): Promise<FixtureRegistry> {
  const registry = await startFixtureRegistry(options);
  onCleanup(() => registry.close());
  return registry;
}

export interface CapturedLog {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

export function captureLogger(lines: CapturedLog[] = []): Logger & { lines: CapturedLog[] } {
  const at =
    (level: string) =>
    (message: string, fields?: Record<string, unknown>): void => {
      lines.push({ level, message, ...(fields ? { fields } : {}) });
    };
  const logger: Logger & { lines: CapturedLog[] } = {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
  };
  return logger;
}

/** Requests the fixture got for the server list (not `/versions`). */
export const listRequests = (registry: FixtureRegistry) => registry.requests.filter((r) => r.path === '/v0.1/servers');
