import { readFileSync } from 'node:fs';

/**
 * The package version, read once from Patchbay's package.json: the nearest one above this module
 * named `mcp-patchbay`. Looked up rather than at a fixed relative path, because this module runs
 * from src/ (tests), dist/main/core/home (the CLI) and inside the desktop app's bundled main
 * process, each at another depth.
 */
export const PATCHBAY_VERSION: string = (() => {
  let dir = new URL('.', import.meta.url);
  for (let i = 0; i < 8; i++) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'mcp-patchbay') return pkg.version ?? '0.0.0';
    } catch {
      // No package.json here: look one level up.
    }
    dir = new URL('..', dir);
  }
  return '0.0.0';
})();
