/** What `patchbay search` and `outdated` print, and the two questions `add` and `update` ask on a terminal. */
import { createInterface } from 'node:readline';
import type { CatalogOutdated, CatalogRegistry, CatalogResult } from '../../../shared/api/catalog-contract.js';
import type { CliIo } from '../command.js';
import { table } from '../text-table.js';

export interface SearchAnswer {
  results: CatalogResult[];
  total: number;
  registries: CatalogRegistry[];
}

/** How a result runs: its package types, and `remote` when it has one. */
function runsWith(r: CatalogResult): string {
  return [...r.packageTypes, ...(r.remote ? ['remote'] : [])].join(',') || '-';
}

export function formatSearch(answer: SearchAnswer): string {
  if (answer.results.length === 0) return 'No servers found.\n';
  const label = new Map(answer.registries.map((r) => [r.url, r.label]));
  const rows = answer.results.map((r) => [r.name, r.version, `${r.namespace.kind}:${r.namespace.owner}`, runsWith(r), label.get(r.registry) ?? r.registry]);
  const lines = table(['NAME', 'VERSION', 'TRUST', 'RUNS WITH', 'REGISTRY'], rows).split('\n');
  // Each result's description under its row, indented.
  const out = [lines[0]!];
  answer.results.forEach((r, i) => {
    out.push(lines[i + 1]!);
    const installed = r.installed.length > 0 ? ` [installed as ${r.installed.join(', ')}]` : '';
    out.push(`    ${r.description}${installed}`);
  });
  const more = answer.total > answer.results.length ? `(${answer.results.length} of ${answer.total}; --limit for more)\n` : '';
  return out.join('\n') + '\n' + more;
}

export function formatOutdated(answer: CatalogOutdated): string {
  if (answer.servers.length === 0) return 'Every server installed from a registry is up to date.\n';
  return table(['SERVER', 'INSTALLED', 'LATEST', 'NAME'], answer.servers.map((s) => [s.serverId, s.installed, s.latest, s.name]));
}

/** One line typed at the terminal (echoed: not for secrets). */
export function askLine(io: CliIo, prompt: string): Promise<string> {
  const rl = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream, terminal: false });
  io.stderr.write(prompt);
  return new Promise((resolve) => {
    rl.once('line', (line) => {
      // Before close(): closing emits 'close', which would answer '' first.
      resolve(line.trim());
      rl.close();
    });
    rl.once('close', () => resolve(''));
  });
}

export async function confirm(io: CliIo, prompt: string): Promise<boolean> {
  return /^y(es)?$/i.test(await askLine(io, prompt));
}
