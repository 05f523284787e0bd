/**
 * PROTOCOL P31, the PATH part: a child's PATH is the user's login-shell PATH merged with the
 * engine's own. The engine asks the shell once per process and caches the answer, so this test
 * has a file (and so a process) of its own. The "login shell" is a script of ours that prepends a
 * marker directory, which makes the outcome independent of the machine's real shell rc files.
 */
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { onCleanup } from '../helpers/cleanup.js';
import { probeServer } from '../helpers/server-entries.js';
import { tempDir } from '../helpers/temp-dir.js';
import { connect } from '../helpers/test-client.js';
import { startHub } from '../helpers/test-hub.js';
import { skipNote, WINDOWS } from '../helpers/skip-note.js';

const MARKER_DIR = '/patchbay-login-shell-marker/bin';

it.skipIf(WINDOWS)(skipNote(WINDOWS, 'P31: the child PATH is the login shell’s PATH merged with the engine’s, login entries first, no duplicates', 'Windows has no login shell; its PATH is inherited'), async () => {
  const dir = await tempDir('patchbay-login-shell-');
  const shell = path.join(dir, 'fake-login-shell');
  // Called as `$SHELL -ilc '<command>'`, like a real login shell that adds a directory in its rc file.
  await writeFile(shell, `#!/bin/sh\nPATH="${MARKER_DIR}:$PATH"\nexport PATH\nshift\nexec /bin/sh -c "$1"\n`);
  await chmod(shell, 0o755);
  const before = { SHELL: process.env.SHELL, NO: process.env.PATCHBAY_NO_LOGIN_SHELL };
  process.env.SHELL = shell;
  onCleanup(() => {
    if (before.SHELL === undefined) delete process.env.SHELL;
    else process.env.SHELL = before.SHELL;
    if (before.NO === undefined) delete process.env.PATCHBAY_NO_LOGIN_SHELL;
    else process.env.PATCHBAY_NO_LOGIN_SHELL = before.NO;
  });

  const h = await startHub({ servers: { probe: probeServer() }, loginShell: true });
  const client = await connect(h, 'probe');
  const env = JSON.parse(await client.tool('dump_env')) as Record<string, string>;
  const entries = env.PATH!.split(':');
  expect(entries[0]).toBe(MARKER_DIR);
  // Everything the engine's own PATH had is still there…
  for (const entry of (process.env.PATH ?? '').split(':').filter(Boolean)) expect(entries).toContain(entry);
  // …once.
  expect(new Set(entries).size).toBe(entries.length);
  expect(entries).not.toContain('');
});
