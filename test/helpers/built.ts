/**
 * The build (dist/) that tests spawn as a real CLI. `npm test` builds before it runs the tests, so
 * there this does nothing: rewriting dist/ in the middle of a full run would race the other tests
 * that are spawning it (tsc truncates a file before it writes it). Run on its own after an edit,
 * a test gets a fresh build: tsc runs when a source file of the engine is newer than the build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './repo-paths.js';

const MARKER = path.join(REPO_ROOT, 'dist', 'main', 'cli', 'main.js');

function newestSource(): number {
  let newest = 0;
  for (const dir of ['src/main', 'src/shared']) {
    for (const entry of readdirSync(path.join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) continue;
      newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/** Builds the engine and CLI with tsc when dist/ is missing or older than src/. */
export function ensureBuilt(): void {
  if (existsSync(MARKER) && statSync(MARKER).mtimeMs >= newestSource()) return;
  // tsc emits even when files elsewhere have type errors; those are the typecheck's job.
  const build = spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.node.json'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (!existsSync(MARKER)) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
}
