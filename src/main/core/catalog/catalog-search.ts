/**
 * Searching the registry copies locally (never the registry itself, so typing costs no request):
 * MiniSearch (BM25+, prefix and typo-tolerant; docs/dependencies.md says why this library) over
 * each entry's name split where people split words (`io.github.acme/weather-mcp` → io github acme
 * weather mcp), title, description and package identifiers. Name and title weigh most, so a server
 * *named* for a word ranks above one that mentions it. Built once per change of the copies.
 */
import MiniSearch from 'minisearch';
import { nameWords } from '../profiles/tool-search.js';
import type { RegistryEntry } from './catalog-source.js';
import { updatedTime } from './server-document.js';

interface Doc {
  id: number;
  name: string;
  title: string;
  description: string;
  packages: string;
}

function tokenize(text: string): string[] {
  return nameWords(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

export class CatalogIndex {
  private readonly index: MiniSearch<Doc>;

  constructor(private readonly entries: readonly RegistryEntry[]) {
    this.index = new MiniSearch<Doc>({
      fields: ['name', 'title', 'description', 'packages'],
      tokenize,
      searchOptions: {
        boost: { name: 3, title: 2.5, packages: 1.5 },
        prefix: true,
        // One typo in words of five to seven letters ("wether" finds weather), two in longer ones; shorter words must match.
        fuzzy: (term) => (term.length >= 5 ? 0.2 : 0),
        maxFuzzy: 2,
        combineWith: 'OR',
      },
    });
    this.index.addAll(
      entries.map((entry, id) => ({
        id,
        name: entry.document.name,
        title: entry.document.title ?? '',
        description: entry.document.description,
        packages: (entry.document.packages ?? []).map((p) => p.identifier).join(' '),
      })),
    );
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * The best matches first (ties: the most recently updated); an empty query lists every entry,
   * most recently updated first. `registry`: only that registry's entries.
   */
  search(query: string, options: { limit?: number; registry?: string } = {}): { hits: RegistryEntry[]; total: number } {
    const limit = options.limit ?? 50;
    const inRegistry = (e: RegistryEntry) => options.registry === undefined || e.registry === options.registry;
    let found: RegistryEntry[];
    if (tokenize(query).length === 0) {
      found = this.entries.filter(inRegistry).sort((a, b) => updatedTime(b) - updatedTime(a) || a.document.name.localeCompare(b.document.name));
    } else {
      found = this.index
        .search(query)
        .map((hit) => ({ entry: this.entries[hit.id as number]!, score: hit.score }))
        .filter((hit) => inRegistry(hit.entry))
        .sort((a, b) => b.score - a.score || updatedTime(b.entry) - updatedTime(a.entry))
        .map((hit) => hit.entry);
    }
    return { hits: found.slice(0, Math.max(0, limit)), total: found.length };
  }
}
