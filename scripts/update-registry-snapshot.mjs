#!/usr/bin/env node
// @ts-check
/**
 * Regenerates assets/registry-snapshot.json, the small copy of the official MCP Registry that
 * Patchbay's catalog shows on a first run without network (docs/catalog.md, "Offline and the
 * snapshot"). Run by hand, with network; never by tests or the build.
 *
 *   node scripts/update-registry-snapshot.mjs [--count 50] [--url https://registry.modelcontextprotocol.io]
 *       the N most recently updated servers (latest versions, not deleted) of that registry
 *   node scripts/update-registry-snapshot.mjs --from-fixture
 *       the real documents of the fixture registry (test/fixtures/registry/servers/real-*.json), offline
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'assets', 'registry-snapshot.json');
const OFFICIAL = 'io.modelcontextprotocol.registry/official';

const args = process.argv.slice(2);
/** @param {string} name @param {string} fallback */
const arg = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
};
const count = Number(arg('--count', '50'));
const url = String(arg('--url', 'https://registry.modelcontextprotocol.io')).replace(/\/+$/, '');

/** @returns {Promise<{ servers: any[], source: string }>} */
async function fromRegistry() {
  /** @type {any[]} */
  const found = [];
  // The API has no sort; ask for what changed lately (wider windows until there are enough), then sort.
  for (const days of [7, 30, 180, 3650]) {
    found.length = 0;
    const since = new Date(Date.now() - days * 86_400_000).toISOString();
    let cursor = '';
    for (let page = 0; page < 50; page++) {
      const q = new URLSearchParams({ version: 'latest', limit: '100', updated_since: since, ...(cursor ? { cursor } : {}) });
      const res = await fetch(`${url}/v0.1/servers?${q}`, { signal: AbortSignal.timeout(30_000) });
      if (!res.ok) throw new Error(`GET /v0.1/servers?${q}: ${res.status}`);
      const body = /** @type {{ servers: any[], metadata?: { nextCursor?: string } }} */ (await res.json());
      found.push(...body.servers.filter((/** @type {any} */ e) => e._meta?.[OFFICIAL]?.status === 'active'));
      cursor = body.metadata?.nextCursor ?? '';
      if (!cursor) break;
    }
    if (found.length >= count) break;
  }
  const time = (/** @type {any} */ e) => Date.parse(e._meta?.[OFFICIAL]?.updatedAt ?? '') || 0;
  return { servers: found.sort((a, b) => time(b) - time(a)).slice(0, count), source: `${url}/v0.1/servers (the ${count} most recently updated)` };
}

function fromFixture() {
  const dir = path.join(root, 'test', 'fixtures', 'registry', 'servers');
  const servers = readdirSync(dir)
    .filter((f) => f.startsWith('real-') && f.endsWith('.json'))
    .sort()
    .map((f) => ({ server: JSON.parse(readFileSync(path.join(dir, f), 'utf8')), _meta: { [OFFICIAL]: { status: 'active', isLatest: true } } }));
  return { servers, source: 'test/fixtures/registry/servers/real-*.json (server.json files of public GitHub repositories; see the README there)' };
}

const { servers, source } = args.includes('--from-fixture') ? fromFixture() : await fromRegistry();
const snapshot = {
  generatedAt: new Date().toISOString(),
  source,
  note: 'Shown by the catalog for the official registry until a first refresh succeeds. Regenerate with scripts/update-registry-snapshot.mjs.',
  servers,
  metadata: { count: servers.length },
};
writeFileSync(out, `${JSON.stringify(snapshot, null, 1)}\n`);
process.stdout.write(`wrote ${servers.length} servers to ${path.relative(root, out)}\n`);
