// Removes what tsc emits (dist/main, dist/shared) before a build, so files moved or deleted in
// src/ leave no stale copies in dist/ (the packaging-graph test walks dist/). Node, not `rm -rf`:
// npm scripts run under cmd.exe on Windows.
import { rmSync } from 'node:fs';
for (const dir of ['dist/main', 'dist/shared']) rmSync(new URL(`../${dir}`, import.meta.url), { recursive: true, force: true });
