/**
 * What the installed app loads is what electron-builder packs (issue 18): the imports of the BUILT
 * entry points — the main process, the preload, the relay, the demo server — are walked file by
 * file. Every file reached must be packed by electron-builder.yml (`files`, or `extraResources`
 * for the relay and the demo server); every package must be a production dependency (or
 * Electron's or Node's own); the preload may load nothing but `electron` (it runs sandboxed), the
 * relay and the demo server nothing but Node's built-ins (they run in Node mode, outside app.asar). Imports are read from the syntax tree, so code that only
 * mentions `require("…")` inside a string is not taken for an import. Files a bundled module finds
 * relative to itself (`new URL('…', import.meta.url)`) are checked too: bundling moves modules.
 */
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireDesktopBuild } from '../../../test/desktop/desktop-harness.js';
import { REPO_ROOT } from '../../../test/helpers/repo-paths.js';
import { appFiles } from './app-paths.js';
import { demoScriptLocation } from './demo-server-entry.js';
import { relayScriptLocation, type RelayLauncherInputs } from './relay-launcher.js';
import { allTrayIconNames } from './tray-icons.js';

interface BuilderConfig {
  files: string[];
  extraResources: Array<{ from: string; to: string }>;
}
const config = parse(readFileSync(path.join(REPO_ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { main: string; dependencies: Record<string, string> };

/** electron-builder's pattern subset used in `files`: `**`, `*`, `?`, and `!` to exclude. */
function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** True when electron-builder's `files` puts this repo-relative file into app.asar. */
function packed(file: string): boolean {
  let inside = false;
  for (const pattern of config.files) {
    if (pattern.startsWith('!')) {
      if (globToRegExp(pattern.slice(1)).test(file)) inside = false;
    } else if (globToRegExp(pattern).test(file)) inside = true;
  }
  return inside;
}

/** `new URL('<relative>', import.meta.url)`: a file the module reads from beside itself. */
function relativeUrlOf(node: ts.Node): string | undefined {
  if (!ts.isNewExpression(node) || !ts.isIdentifier(node.expression) || node.expression.text !== 'URL') return undefined;
  const [target, base] = node.arguments ?? [];
  const isMetaUrl = base !== undefined && ts.isPropertyAccessExpression(base) && ts.isMetaProperty(base.expression) && base.name.text === 'url';
  return isMetaUrl && target && ts.isStringLiteralLike(target) ? target.text : undefined;
}

/** Files the bundles find relative to themselves (repo-relative), per entry file. */
const selfRelative: string[] = [];

/** Module specifiers of one file: static and dynamic imports, re-exports, require() and bundlers' __require(). */
function specifiersOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    const relative = relativeUrlOf(node);
    // A directory (`new URL('.', import.meta.url)`, where a lookup starts) is not a file read.
    if (relative !== undefined && !/(^|\/)\.{0,2}\/?$/.test(relative)) selfRelative.push(path.relative(REPO_ROOT, path.resolve(path.dirname(file), relative)).split(path.sep).join('/'));
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) out.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.arguments.length >= 1) {
      const [arg] = node.arguments;
      const callee = node.expression;
      const named = ts.isIdentifier(callee) && (callee.text === 'require' || callee.text === '__require');
      if ((callee.kind === ts.SyntaxKind.ImportKeyword || named) && arg && ts.isStringLiteralLike(arg)) out.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

interface Graph {
  /** Repo-relative files reached. */
  files: string[];
  /** Bare specifiers (packages and built-ins). */
  bare: string[];
}

function walk(entry: string): Graph {
  const files = new Set<string>();
  const bare = new Set<string>();
  const queue = [path.join(REPO_ROOT, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    const rel = path.relative(REPO_ROOT, file).split(path.sep).join('/');
    if (files.has(rel)) continue;
    if (!existsSync(file)) throw new Error(`${rel} is imported but missing`);
    files.add(rel);
    for (const spec of specifiersOf(file)) {
      if (spec.startsWith('.') || spec.startsWith('/')) queue.push(path.resolve(path.dirname(file), spec));
      else bare.add(spec);
    }
  }
  return { files: [...files].sort(), bare: [...bare].sort() };
}

const isBuiltin = (spec: string): boolean => spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!);
const packageOf = (spec: string): string => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);

beforeAll(() => requireDesktopBuild());

// Parsing the engine's bundle (a few MB) takes seconds.
describe('what the packaged app loads is what electron-builder packs', { timeout: 60_000 }, () => {
  it("the main process (package.json main): every file it reaches is packed, and it loads no package but Electron and Node's own", () => {
    expect(pkg.main).toBe('dist/main/electron/main.js');
    const graph = walk(pkg.main);
    expect(graph.files).toContain('dist/main/electron/main.js');
    // The engine is a chunk loaded on first use: it is part of the graph, so the walk followed it.
    expect(graph.files.some((f) => /^dist\/main\/electron\/engine-[\w-]+\.js$/.test(f))).toBe(true);
    for (const file of graph.files) expect(packed(file), `${file} is loaded but not packed`).toBe(true);
    const packages = graph.bare.filter((s) => !isBuiltin(s));
    expect(packages).toEqual(['electron']);
    // Files read from beside a module must be packed — except the engine's defaults for plain Node
    // (written for the depth of dist/main/core/*), which the app never uses:
    const unusedInTheApp = [
      // the CLI's relay launcher: the desktop passes its own (desktopRelayLauncher)
      'bin/patchbay.js',
      // core's first-run demo server entry (dist/main/demo, for plain Node): core/config/first-run.ts
      // gives none inside Electron, and the desktop passes its own (desktopDemoServer, tested below)
      'demo/demo-server.js',
    ];
    const used = selfRelative.filter((f) => !unusedInTheApp.some((known) => f.endsWith(known)));
    for (const file of used) expect(packed(file), `${file} is read at run time but not packed`).toBe(true);
    // The version comes from the nearest package.json named mcp-patchbay above the bundle (home/version.ts): packed.
    expect(packed('package.json')).toBe(true);
    // Were one to come back, it would have to be a production dependency (packed into app.asar).
    for (const spec of packages.filter((s) => s !== 'electron')) expect(Object.keys(pkg.dependencies)).toContain(packageOf(spec));
  });

  it('the preload loads only `electron` (a sandboxed preload can require nothing else of ours)', () => {
    const preload = path.relative('', appFiles('').preload).replace(/^[/\\]/, '').split(path.sep).join('/');
    const graph = walk(preload);
    expect(graph.files).toEqual([preload]);
    expect(graph.bare).toEqual(['electron']);
    expect(packed(preload)).toBe(true);
  });

  /** A packaged app's layout (Linux deb): where extraResources land is `process.resourcesPath`. */
  const installed: RelayLauncherInputs = { platform: 'linux', isPackaged: true, execPath: '/opt/Patchbay/patchbay-desktop', resourcesPath: '/opt/Patchbay/resources', appPath: '/opt/Patchbay/resources/app.asar', dataDir: '/home/me/.config/patchbay' };
  /** The extraResources entry shipping `from`, and where it lands in the installed app. */
  const shipped = (from: string): string => {
    const entry = config.extraResources.find((e) => e.from === from);
    expect(entry, `${from} is not in extraResources`).toBeDefined();
    return path.posix.join(installed.resourcesPath, entry!.to);
  };

  it("the relay is one file of Node built-ins, shipped outside app.asar where the app's launcher points", () => {
    const relay = 'dist/relay/patchbay-relay.mjs';
    expect(relayScriptLocation({ ...installed, platform: process.platform, isPackaged: false, appPath: REPO_ROOT }).script).toBe(path.join(REPO_ROOT, relay));
    const graph = walk(relay);
    expect(graph.files).toEqual([relay]);
    expect(graph.bare.filter((s) => !isBuiltin(s))).toEqual([]);
    expect(packed(relay)).toBe(false);
    expect(relayScriptLocation(installed).script).toBe(shipped(relay));
  });

  it('the demo server is one file of Node built-ins, shipped outside app.asar where the first-run entry points', () => {
    const demo = 'dist/demo/patchbay-demo-server.mjs';
    // Development runs point at the build itself; the packaged app at the shipped copy.
    expect(demoScriptLocation({ ...installed, platform: process.platform, isPackaged: false, appPath: REPO_ROOT }).script).toBe(path.join(REPO_ROOT, demo));
    const readBefore = selfRelative.length;
    const graph = walk(demo);
    expect(graph.files).toEqual([demo]);
    expect(graph.bare.filter((s) => !isBuiltin(s))).toEqual([]);
    // It reads nothing from beside itself: the copy in resources/demo/ (or an AppImage's data dir) runs alone.
    expect(selfRelative.slice(readBefore)).toEqual([]);
    expect(packed(demo)).toBe(false);
    expect(demoScriptLocation(installed).script).toBe(shipped(demo));
  });

  it("the UI's files, the tray images and the window icon are packed", () => {
    const index = readFileSync(path.join(REPO_ROOT, 'dist', 'renderer', 'index.html'), 'utf8');
    const assets = [...index.matchAll(/(?:src|href)="\.?\/?([^"]+)"/g)].map((m) => `dist/renderer/${m[1]!}`);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const file of ['dist/renderer/index.html', ...assets]) {
      expect(existsSync(path.join(REPO_ROOT, file)), file).toBe(true);
      expect(packed(file), file).toBe(true);
    }
    for (const name of allTrayIconNames()) expect(packed(`assets/tray/${name}`), name).toBe(true);
    expect(packed(path.relative('', appFiles('').windowIcon).replace(/^[/\\]/, ''))).toBe(true);
  });

  it('the matcher is real: files outside the globs, and excluded ones, are not packed', () => {
    expect(packed('dist/main/core/index.js')).toBe(false);
    expect(packed('dist/main/electron/main.js.map')).toBe(false);
    expect(packed('src/main/electron/main.ts')).toBe(false);
    expect(packed('dist/renderer/assets/x.js')).toBe(true);
  });
});
