/**
 * The layer rule (eslint-rules/layers.js) bites: fixture sources linted with the project's own
 * ESLint config under the paths they would have in the tree. Nothing is written to src/.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { assertAcyclic, CORE_LAYERS } from '../../eslint-rules/layers.js';
import { REPO_ROOT } from '../helpers/repo-paths.js';

const eslint = new ESLint({ cwd: REPO_ROOT });

/** The layer rule's messages for `code` linted as if it were the file `rel`. */
async function layerErrors(rel: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, rel) });
  return result!.messages.filter((m) => m.ruleId === 'patchbay/layers').map((m) => m.message);
}

describe('the layer rule', () => {
  it('lets a shell import core only through its face', async () => {
    const deep = await layerErrors('src/main/cli/commands/fixture.ts', "import { Hub } from '../../core/hub/hub-server.js';\nexport const x = Hub;\n");
    expect(deep).toEqual([expect.stringContaining("src/main/cli may import the engine and other shells only through their faces")]);
    const dynamic = await layerErrors('src/main/electron/fixture.ts', "export const load = () => import('../core/engine/engine.js');\n");
    expect(dynamic).toHaveLength(1);
    const reexport = await layerErrors('src/main/relay/fixture.ts', "export { ServerRegistry } from '../core/servers/server-registry.js';\n");
    expect(reexport).toHaveLength(1);
    expect(await layerErrors('src/main/cli/commands/fixture.ts', "import { createLogger } from '../../core/index.js';\nexport const log = createLogger('x');\n")).toEqual([]);
    expect(await layerErrors('src/main/cli/commands/fixture.ts', "import { runStdioRelay } from '../../relay/index.js';\nexport const r = runStdioRelay;\n")).toEqual([]);
  });

  it('keeps the relay shell from reaching into the cli, and the desktop shell from the preload', async () => {
    expect(await layerErrors('src/main/relay/fixture.ts', "import { commands } from '../cli/command-registry.js';\nexport const c = commands;\n")).toHaveLength(1);
    expect(await layerErrors('src/main/electron/fixture.ts', "import { x } from '../../preload/bridge-api.js';\nexport const y = x;\n")).toEqual([
      expect.stringContaining('must not import src/preload'),
    ]);
  });

  it('refuses an import between core folders that the table does not allow (a would-be cycle)', async () => {
    // hub may use upstream; upstream using hub would close a cycle.
    expect(await layerErrors('src/main/core/hub/fixture.ts', "import type { UpstreamConnection } from '../upstream/upstream.js';\nexport type U = UpstreamConnection;\n")).toEqual([]);
    expect(await layerErrors('src/main/core/upstream/fixture.ts', "import type { Session } from '../hub/session.js';\nexport type S = Session;\n")).toEqual([
      expect.stringContaining('core/upstream may not import core/hub'),
    ]);
    expect(await layerErrors('src/main/core/protocol/fixture.ts', "import { startEngine } from '../engine/engine.js';\nexport const s = startEngine;\n")).toHaveLength(1);
  });

  it('keeps core from importing a shell or its own face, and files out of core root', async () => {
    expect(await layerErrors('src/main/core/engine/fixture.ts', "import { runCli } from '../../cli/run-cli.js';\nexport const r = runCli;\n")).toEqual([
      expect.stringContaining('must not import src/main/cli'),
    ]);
    expect(await layerErrors('src/main/core/hub/fixture.ts', "import { createLogger } from '../index.js';\nexport const l = createLogger;\n")).toEqual([
      expect.stringContaining("must not import core's face"),
    ]);
    expect(await layerErrors('src/main/core/fixture.ts', 'export const x = 1;\n')).toEqual([expect.stringContaining('only index.ts')]);
  });

  it('the table itself is acyclic, and a cycle in it is refused', () => {
    expect(() => assertAcyclic(CORE_LAYERS)).not.toThrow();
    expect(() => assertAcyclic({ ...CORE_LAYERS, upstream: [...(CORE_LAYERS.upstream ?? []), 'hub'] })).toThrow(/core layer cycle: .*upstream → hub → upstream|core layer cycle: .*hub → upstream → hub/);
  });
});
