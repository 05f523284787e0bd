#!/usr/bin/env node
// @ts-check
/**
 * Summarizes a V8 `.cpuprofile` (from `node --cpu-prof`): where the busy time goes, by area
 * (Patchbay's own code, Node internals, GC, …), the hottest functions by self time, and
 * Patchbay's functions by inclusive time. Positions in dist/*.js are mapped back to src/*.ts
 * through the build's source maps.
 *
 *   node bench/profile-summary.mjs <file.cpuprofile> [--top N] [--root <dir holding the build's dist/>]
 *
 * run.mjs --profile calls summarizeProfile() itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the profiled build lives (run.mjs profiles a snapshot of dist/); paths are shown relative to it. */
let root = REPO;

/**
 * @typedef {{ functionName: string, url: string, lineNumber: number, columnNumber: number }} CallFrame
 * @typedef {{ id: number, callFrame: CallFrame, children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[], startTime: number, endTime: number }} CpuProfile
 */

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes a source map's `mappings` into per-generated-line segment lists. @param {string} mappings */
function decodeMappings(mappings) {
  /** @type {Array<Array<[number, number, number]>>} [genCol, srcIndex, srcLine] */
  const lines = [];
  let srcIndex = 0;
  let srcLine = 0;
  for (const lineText of mappings.split(';')) {
    /** @type {Array<[number, number, number]>} */
    const segs = [];
    let genCol = 0;
    for (const seg of lineText.split(',')) {
      if (!seg) continue;
      /** @type {number[]} */
      const values = [];
      let value = 0;
      let shift = 0;
      for (const ch of seg) {
        let digit = B64.indexOf(ch);
        const more = digit & 32;
        digit &= 31;
        value += digit << shift;
        if (more) {
          shift += 5;
        } else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      genCol += values[0] ?? 0;
      if (values.length >= 4) {
        srcIndex += values[1] ?? 0;
        srcLine += values[2] ?? 0;
        segs.push([genCol, srcIndex, srcLine]);
      }
    }
    lines.push(segs);
  }
  return lines;
}

/** @type {Map<string, { sources: string[], lines: Array<Array<[number, number, number]>> } | null>} */
const mapCache = new Map();

/** Maps a dist/*.js position to `src/….ts:line` when a source map is there. @param {string} file @param {number} line0 @param {number} col0 */
function original(file, line0, col0) {
  if (!mapCache.has(file)) {
    let entry = null;
    try {
      if (existsSync(`${file}.map`)) {
        const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
        entry = {
          sources: map.sources.map((/** @type {string} */ s) =>
            path.resolve(path.dirname(file), map.sourceRoot ?? '', s),
          ),
          lines: decodeMappings(map.mappings),
        };
      }
    } catch {
      entry = null;
    }
    mapCache.set(file, entry);
  }
  const map = mapCache.get(file);
  const segs = map?.lines[line0];
  if (!map || !segs || segs.length === 0) return undefined;
  let best = segs[0];
  for (const s of segs) if (s[0] <= col0) best = s;
  if (!best) return undefined;
  return { file: map.sources[best[1]] ?? file, line: best[2] + 1 };
}

/** Where a frame's code lives, for grouping. @param {CallFrame} cf */
function area(cf) {
  const url = cf.url;
  if (!url) {
    if (cf.functionName === '(garbage collector)') return 'GC';
    if (cf.functionName === '(idle)') return 'idle';
    if (cf.functionName === '(program)') return 'V8/native (program)';
    return 'native';
  }
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const file = url.startsWith('file://') ? fileURLToPath(url) : url;
  const nm = file.lastIndexOf('/node_modules/');
  if (nm !== -1) {
    const rest = file.slice(nm + 14).split('/');
    return `npm:${rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const rel = path.relative(root, file);
  if (rel.startsWith('dist/main/'))
    return `patchbay:${path.dirname(rel.slice(5)).replace(/^main\//, '')}`;
  return rel.startsWith('..') ? file : rel;
}

/** `name (src/…:line)` for a frame. @param {CallFrame} cf */
function label(cf) {
  const name = cf.functionName || '(anonymous)';
  if (!cf.url) return name;
  const file = cf.url.startsWith('file://') ? fileURLToPath(cf.url) : cf.url;
  const pos = file.endsWith('.js') ? original(file, cf.lineNumber, cf.columnNumber) : undefined;
  const where = pos
    ? `${path.relative(root, pos.file)}:${pos.line}`
    : `${cf.url.startsWith('node:') ? cf.url : path.relative(root, file)}:${cf.lineNumber + 1}`;
  return `${name} (${where})`;
}

/**
 * @param {CpuProfile} profile
 * @param {{ top?: number, root?: string }} [options] root: the directory holding the profiled
 *   build's dist/ (default: this repo)
 */
export function summarizeProfile(profile, options = {}) {
  const top = options.top ?? 20;
  root = options.root ?? REPO;
  /** @type {Map<number, ProfileNode>} */
  const byId = new Map();
  /** @type {Map<number, number>} */
  const parent = new Map();
  for (const n of profile.nodes) byId.set(n.id, n);
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  /** @type {Map<number, number>} µs per node */
  const selfUs = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    const dt = profile.timeDeltas[i + 1] ?? 0;
    if (id === undefined) continue;
    selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, dt));
  }
  let totalUs = 0;
  let idleUs = 0;
  /** @type {Map<string, number>} */
  const areaUs = new Map();
  /** @type {Map<string, { us: number, area: string }>} */
  const fnSelf = new Map();
  /** @type {Map<string, number>} inclusive time of Patchbay functions */
  const fnIncl = new Map();
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    totalUs += us;
    const a = area(node.callFrame);
    if (a === 'idle') {
      idleUs += us;
      continue;
    }
    areaUs.set(a, (areaUs.get(a) ?? 0) + us);
    const key = label(node.callFrame);
    const f = fnSelf.get(key) ?? { us: 0, area: a };
    f.us += us;
    fnSelf.set(key, f);
    /** @type {Set<string>} */
    const seen = new Set();
    for (
      let cur = /** @type {number | undefined} */ (id);
      cur !== undefined;
      cur = parent.get(cur)
    ) {
      const cn = byId.get(cur);
      if (!cn || !area(cn.callFrame).startsWith('patchbay:')) continue;
      const k = label(cn.callFrame);
      if (seen.has(k)) continue;
      seen.add(k);
      fnIncl.set(k, (fnIncl.get(k) ?? 0) + us);
    }
  }
  const busyUs = totalUs - idleUs;
  const ms = (/** @type {number} */ us) => Math.round(us / 100) / 10;
  const pct = (/** @type {number} */ us) => Math.round((1000 * us) / Math.max(1, busyUs)) / 10;
  return {
    wallMs: ms(profile.endTime - profile.startTime),
    busyMs: ms(busyUs),
    idleMs: ms(idleUs),
    areas: [...areaUs]
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => ({ area: name, ms: ms(us), pct: pct(us) })),
    topSelf: [...fnSelf]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, top)
      .map(([fn, v]) => ({ fn, area: v.area, ms: ms(v.us), pct: pct(v.us) })),
    patchbayInclusive: [...fnIncl]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, us]) => ({ fn, ms: ms(us), pct: pct(us) })),
  };
}

/** @param {ReturnType<typeof summarizeProfile>} s */
export function formatSummary(s) {
  const lines = [];
  lines.push(
    `wall ${s.wallMs} ms, busy ${s.busyMs} ms, idle ${s.idleMs} ms (percentages are of busy time)`,
  );
  lines.push('', 'By area (self time):');
  for (const a of s.areas.slice(0, 15))
    lines.push(`  ${String(a.pct).padStart(5)}%  ${String(a.ms).padStart(8)} ms  ${a.area}`);
  lines.push('', 'Hottest functions (self time):');
  for (const f of s.topSelf)
    lines.push(
      `  ${String(f.pct).padStart(5)}%  ${String(f.ms).padStart(8)} ms  ${f.fn}  [${f.area}]`,
    );
  lines.push('', 'Patchbay functions (inclusive time: the function and everything it called):');
  for (const f of s.patchbayInclusive)
    lines.push(`  ${String(f.pct).padStart(5)}%  ${String(f.ms).padStart(8)} ms  ${f.fn}`);
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node bench/profile-summary.mjs <file.cpuprofile> [--top N]');
    process.exit(2);
  }
  const topAt = process.argv.indexOf('--top');
  const rootAt = process.argv.indexOf('--root');
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  console.log(
    formatSummary(
      summarizeProfile(profile, {
        top: topAt === -1 ? 20 : Number(process.argv[topAt + 1]),
        root: rootAt === -1 ? undefined : process.argv[rootAt + 1],
      }),
    ),
  );
}
