/**
 * P30 / ARCHITECTURE "No orphaned processes": engine.close() while a session's child is still being
 * started must not leave that child running. The window is made deterministic with a fake login
 * shell that blocks until the test releases it (the engine asks the login shell for PATH before
 * the first spawn, P31), so close() runs exactly while the spawn is pending. Own file: the engine
 * asks the shell once per process.
 */
import { existsSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loginShellPath } from '../../src/main/core/upstream/child-env.js';
import { onCleanup } from '../helpers/cleanup.js';
import { initializeRequest } from '../helpers/json-rpc.js';
import { post } from '../helpers/mcp-http.js';
import { fixtureChildren } from '../helpers/processes.js';
import { probeServer } from '../helpers/server-entries.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startHub } from '../helpers/test-hub.js';
import { waitFor, withTimeout } from '../helpers/waits.js';
import { skipNote, WINDOWS } from '../helpers/skip-note.js';

it.skipIf(WINDOWS)(skipNote(WINDOWS, 'P30: engine.close() during a pending spawn leaves no child running and no session behind', 'the fixture holds the spawn with a POSIX shell script'), async () => {
  const dir = await tempDir('patchbay-close-race-');
  const started = path.join(dir, 'started');
  const release = path.join(dir, 'release');
  const shell = path.join(dir, 'slow-login-shell');
  await writeFile(shell, `#!/bin/sh\n: > '${started}'\nwhile [ ! -e '${release}' ]; do sleep 0.02; done\nshift\nexec /bin/sh -c "$1"\n`);
  await chmod(shell, 0o755);
  const before = process.env.SHELL;
  process.env.SHELL = shell;
  onCleanup(async () => {
    // Never leave the shell waiting, whatever happened.
    await writeFile(release, '');
    if (before === undefined) delete process.env.SHELL;
    else process.env.SHELL = before;
  });

  const h = await startHub({ servers: { probe: probeServer({ warmSpare: false }) }, loginShell: true });
  // A client starts a session; the engine is now waiting for the login shell before it spawns.
  const pending = post(h, 'probe', initializeRequest(1)).then(
    (res) => res.status,
    () => 'connection closed',
  );
  await waitFor(() => existsSync(started), 'the engine to ask the login shell (a spawn is pending)');
  await withTimeout(h.engine.close(), 15_000, 'engine.close()');
  expect(await withTimeout(pending, 5000, 'the pending initialize to end')).toBe('connection closed');

  // Let the pending spawn go on, and wait until the engine has used the shell's answer: every
  // continuation waiting on it (the engine's first) has run once ours runs and the queue drains.
  await writeFile(release, '');
  await withTimeout(loginShellPath(), 10_000, 'the login shell to answer');
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));

  const orphans = fixtureChildren();
  expect(orphans, 'children started after engine.close() resolved').toEqual([]);
  // Also after the would-be session had time to initialize: no session was added to a closed hub.
  await new Promise((resolve) => setImmediate(resolve));
  expect(h.engine.hub.sessions.size).toBe(0);
});
