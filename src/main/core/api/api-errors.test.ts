import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ConfigError, ConfigStore } from '../config/config-store.js';
import { setLogSink } from '../log/logger.js';
import { ApiError, withApiErrors } from './api-registry.js';

let dir: string;
let store: ConfigStore | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pb-api-errors-'));
  setLogSink(() => undefined);
});
afterEach(async () => {
  await store?.close();
  store = undefined;
  setLogSink(undefined);
  await rm(dir, { recursive: true, force: true });
});

it('passes a config update through, and words its refusal as an ApiError with the store code, message and problem paths', async () => {
  const file = path.join(dir, 'config.json');
  const opened = await ConfigStore.open(file);
  store = opened;
  await withApiErrors(ConfigError, () =>
    opened.update((draft) => {
      draft.mcpServers.fs = { command: 'npx', args: ['fs'] };
    }),
  );
  expect(opened.get().mcpServers.fs).toEqual({ command: 'npx', args: ['fs'] });

  // A broken file: the store refuses to write over it, with a problem that carries a line and column.
  await writeFile(file, '{ "mcpServers": ');
  const err = await withApiErrors(ConfigError, () => opened.update(() => undefined)).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect(err).toMatchObject({ code: 'config_file_invalid', message: expect.stringContaining('has problems') });
  // Only the path and message of each problem travel (not a JSON syntax error's line and column).
  const details = (err as ApiError).details as Array<Record<string, unknown>>;
  expect(details.length).toBeGreaterThan(0);
  for (const problem of details) expect(Object.keys(problem).sort()).toEqual(['message', 'path']);
});

it('lets any other failure through as it is', async () => {
  const failure = new Error('disk on fire');
  await expect(withApiErrors(ConfigError, () => Promise.reject(failure))).rejects.toBe(failure);
});
