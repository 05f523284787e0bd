/**
 * The lint rule that keeps Electron in the shell: only src/main/electron and src/preload may import
 * `electron`. Checked with ESLint itself on the repo's config, for each layer.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CODE = "import { app } from 'electron';\nexport const name = app.getName();\n";

async function electronImportErrors(file: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(CODE, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('who may import electron', () => {
  it('allows src/main/electron and src/preload', async () => {
    expect(await electronImportErrors('src/main/electron/some-concern.ts')).toEqual([]);
    expect(await electronImportErrors('src/preload/some-bridge.ts')).toEqual([]);
  });

  it('refuses every other place', async () => {
    for (const file of ['src/main/core/engine-extra.ts', 'src/main/cli/commands/x.ts', 'src/shared/api/x.ts', 'src/renderer/app/x.ts', 'test/hub/x.test.ts', 'scripts/x.mjs', 'bench/x.mjs', 'e2e/x.spec.ts']) {
      expect(await electronImportErrors(file), file).toEqual([expect.stringContaining('Only src/main/electron and src/preload may import electron')]);
    }
  }, 60_000);
});
