// The layer rule of docs/architecture.md, as an allow-list (a deny-list misses what nobody
// thought of). Two checks on every relative import, static or dynamic:
//
// 1. Shells (src/main/cli, src/main/electron, src/main/relay) reach the engine only through its
//    face, src/main/core/index.ts. The relay is a shell too, with a face of its own
//    (src/main/relay/index.ts) that the cli and the desktop app use to run it.
// 2. Inside the engine, each folder may import only the folders CORE_LAYERS lists for it. The
//    table is checked to be acyclic when this file loads, so no two folders can depend on each
//    other, however indirectly. Files directly in src/main/core/ other than index.ts are refused:
//    everything lives in a folder.
import path from 'node:path';

/**
 * Each core folder and the core folders it may import (besides itself). Keep it acyclic.
 * @type {Record<string, string[]>}
 */
export const CORE_LAYERS = {
  lib: [],
  protocol: ['lib'],
  log: [],
  fs: [],
  home: ['fs', 'log'],
  secrets: ['fs', 'log'],
  api: ['lib', 'protocol', 'log'],
  config: ['fs', 'log', 'secrets'],
  upstream: ['lib', 'protocol', 'log', 'fs'],
  sandbox: ['log', 'fs', 'upstream'],
  hub: ['lib', 'protocol', 'log', 'upstream'],
  bridge: ['lib', 'protocol', 'log', 'upstream', 'hub'],
  traffic: ['lib', 'protocol', 'log', 'secrets', 'upstream', 'hub'],
  oauth: ['protocol', 'log', 'fs', 'secrets', 'config', 'api', 'upstream'],
  servers: ['protocol', 'log', 'fs', 'home', 'secrets', 'config', 'api', 'upstream', 'hub', 'bridge'],
  inspector: ['lib', 'protocol', 'log', 'fs', 'secrets', 'api', 'upstream', 'hub', 'traffic'],
  clients: ['protocol', 'log', 'fs', 'home', 'secrets', 'config', 'api', 'upstream', 'sandbox'],
  ui: ['protocol', 'log', 'fs', 'home', 'api'],
  playground: ['protocol', 'log', 'api', 'hub'],
  profiles: ['lib', 'protocol', 'log', 'fs', 'home', 'config', 'api', 'upstream', 'hub'],
  telemetry: ['lib', 'protocol', 'log', 'secrets', 'config', 'hub', 'traffic'],
  audit: ['log', 'fs', 'api', 'upstream', 'traffic'],
  // Secret checks on a server's traffic: a wrapper of its upstream connections (docs/secret-checks.md).
  guard: ['protocol', 'upstream'],
  // The MCP Registry catalog (docs/catalog.md): registry copies, search, installs. It writes
  // config and secrets and marks a new server's tools for approval (profiles' tool pins).
  catalog: ['lib', 'protocol', 'log', 'fs', 'home', 'secrets', 'config', 'api', 'upstream', 'profiles'],
  engine: ['lib', 'protocol', 'log', 'fs', 'home', 'secrets', 'api', 'config', 'upstream', 'hub', 'bridge', 'traffic', 'oauth', 'servers', 'inspector', 'clients', 'ui', 'playground', 'profiles', 'telemetry', 'sandbox', 'audit', 'catalog', 'guard'],
};

/**
 * Shell folders, and the faces each may import.
 * @type {Record<string, string[]>}
 */
export const SHELLS = {
  cli: ['src/main/core/index.ts', 'src/main/relay/index.ts'],
  electron: ['src/main/core/index.ts', 'src/main/relay/index.ts'],
  relay: ['src/main/core/index.ts'],
};

/**
 * Throws when the table has a cycle (a folder that depends on itself through others).
 * @param {Record<string, readonly string[]>} layers
 */
export function assertAcyclic(layers) {
  /** @type {Map<string, 'visiting' | 'done'>} */
  const state = new Map();
  /** @param {string} name @param {string[]} trail */
  const visit = (name, trail) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`core layer cycle: ${[...trail, name].join(' → ')}`);
    if (!(name in layers)) throw new Error(`core layer '${trail.at(-1)}' allows unknown folder '${name}'`);
    state.set(name, 'visiting');
    for (const dep of layers[name] ?? []) visit(dep, [...trail, name]);
    state.set(name, 'done');
  };
  for (const name of Object.keys(layers)) visit(name, []);
}
assertAcyclic(CORE_LAYERS);

/**
 * `./x.js` in TypeScript source names `./x.ts`: compare paths without the extension.
 * @param {string} file
 */
function stem(file) {
  for (const ext of ['.js', '.ts', '.tsx', '.mjs']) if (file.endsWith(ext)) return file.slice(0, -ext.length);
  return file;
}

/**
 * Where a repo-relative path sits in the layer table.
 * @param {string} rel
 * @returns {{ area: string, folder?: string | undefined, shell?: string } | undefined}
 */
function classify(rel) {
  const parts = rel.split('/');
  if (parts[0] !== 'src') return undefined;
  if (parts[1] === 'main' && parts[2] === 'core') return { area: 'core', folder: parts.length > 4 ? parts[3] : undefined };
  if (parts[1] === 'main' && parts[2] !== undefined && parts[2] in SHELLS) return { area: 'shell', shell: parts[2] };
  if (parts[1] === 'preload' || parts[1] === 'renderer' || parts[1] === 'shared') return { area: parts[1] };
  return { area: 'other' };
}

/** @type {import('eslint').Rule.RuleModule} */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the layer table of docs/architecture.md (shells use core only through its face; core folders form a DAG)' },
    schema: [],
  },
  create(context) {
    const cwd = context.cwd ?? process.cwd();
    const file = path.relative(cwd, context.filename ?? context.getFilename()).split(path.sep).join('/');
    const from = classify(file);
    if (!from || (from.area !== 'core' && from.area !== 'shell')) return {};
    /** @param {import('estree').Node} node @param {unknown} spec */
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      const to = classify(target);
      if (!to) return;
      if (from.area === 'shell' && from.shell !== undefined) {
        if (to.area === 'core' || to.area === 'shell') {
          if (to.area === 'shell' && to.shell === from.shell) return;
          const allowed = (SHELLS[from.shell] ?? []).map(stem);
          if (!allowed.includes(stem(target))) {
            context.report({ node, message: `src/main/${from.shell} may import the engine and other shells only through their faces (${(SHELLS[from.shell] ?? []).join(', ')}), not '${spec}'. Export what you need from the face.` });
          }
          return;
        }
        if (to.area === 'preload' || to.area === 'renderer') {
          context.report({ node, message: `src/main/${from.shell} must not import src/${to.area} ('${spec}'); shared types live in src/shared.` });
        }
        return;
      }
      // From core.
      if (to.area === 'shell' || to.area === 'preload' || to.area === 'renderer') {
        context.report({ node, message: `the engine (src/main/core) must not import src/${to.area === 'shell' ? `main/${to.shell}` : to.area} ('${spec}').` });
        return;
      }
      if (to.area !== 'core') return;
      if (from.folder === undefined) return; // core/index.ts: the face may re-export anything
      // Tests sit beside the code but are not part of the engine's module graph: an integration
      // test in hub/ may start a whole engine.
      if (/\.test\.tsx?$/.test(file)) return;
      if (to.folder === undefined) {
        context.report({ node, message: `core folders must not import core's face ('${spec}'); import the module itself.` });
        return;
      }
      if (to.folder === from.folder) return;
      const allowed = CORE_LAYERS[from.folder];
      if (!allowed) {
        context.report({ node, message: `core folder '${from.folder}' is not in the layer table (eslint-rules/layers.js): add it with the folders it may import.` });
        return;
      }
      if (!allowed.includes(to.folder)) {
        context.report({ node, message: `core/${from.folder} may not import core/${to.folder} ('${spec}'): the layer table allows ${allowed.length ? allowed.join(', ') : 'no other folder'}.` });
      }
    };
    return {
      Program(node) {
        if (from.area === 'core' && from.folder === undefined && !/^src\/main\/core\/index\.tsx?$/.test(file)) {
          context.report({ node, message: `only index.ts (core's face) sits directly in src/main/core; put '${path.posix.basename(file)}' in a folder of the layer table.` });
        }
      },
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export const layersPlugin = { rules: { layers: layersRule } };
