/**
 * Finding a profile's tools by words (issue 26, on-demand tools): a full-text index over each
 * exposed tool's name, title, description and argument names (with their descriptions), ranked by
 * MiniSearch (BM25+, prefix and typo-tolerant matching; docs/dependencies.md says why this
 * library). Names are split where people split words: `read_file`, `get-time` and `listIssues`
 * are all found by "file", "time" and "issues". Built once per merged list (a list change builds a
 * new one); a query costs microseconds for a thousand tools (bench/tool-search.mjs).
 */
import MiniSearch from 'minisearch';
import type { ToolDefinition } from './tool-digest.js';

export interface FoundTool {
  /** The name the client calls it by in the profile. */
  name: string;
  title?: string;
  description?: string;
  /** Its arguments' names (the required ones first). */
  arguments: string[];
  score: number;
}

interface Doc {
  id: number;
  name: string;
  words: string;
  title: string;
  description: string;
  args: string;
}

/** Splits snake_case, kebab-case, dotted and camelCase names into their words, lower-cased. */
export function nameWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-./:]+/g, ' ')
    .toLowerCase();
}

function tokenize(text: string): string[] {
  return nameWords(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

function argumentsOf(tool: ToolDefinition): { names: string[]; text: string } {
  const schema = (tool.inputSchema ?? {}) as { properties?: Record<string, { description?: unknown }>; required?: unknown };
  const properties = schema.properties ?? {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  const names = [...required.filter((r) => r in properties), ...Object.keys(properties).filter((n) => !required.includes(n))];
  const text = names.map((n) => `${n} ${typeof properties[n]?.description === 'string' ? properties[n].description : ''}`).join(' ');
  return { names, text };
}

export class ToolSearch {
  private readonly index: MiniSearch<Doc>;
  private readonly found: FoundTool[] = [];

  /** `tools`: the definitions as the client would list them (exposed names). */
  constructor(tools: ReadonlyArray<ToolDefinition>) {
    this.index = new MiniSearch<Doc>({
      fields: ['words', 'title', 'description', 'args'],
      tokenize,
      // Prefix matches for words being typed; one typo allowed in words of five letters or more
      // (a larger edit distance doubled the slowest queries' time for little gain).
      searchOptions: { boost: { words: 3, title: 2, args: 1.2 }, prefix: true, fuzzy: (term) => (term.length >= 5 ? 0.2 : 0), maxFuzzy: 1, combineWith: 'OR' },
    });
    const docs: Doc[] = tools.map((tool, id) => {
      const args = argumentsOf(tool);
      const title = typeof tool.title === 'string' ? tool.title : '';
      const description = typeof tool.description === 'string' ? tool.description : '';
      this.found.push({ name: tool.name, ...(title ? { title } : {}), ...(description ? { description } : {}), arguments: args.names, score: 0 });
      return { id, name: tool.name, words: nameWords(tool.name), title, description, args: args.text };
    });
    this.index.addAll(docs);
  }

  get size(): number {
    return this.found.length;
  }

  /** The best matches first, at most `limit`; nothing for a query without words. */
  search(query: string, limit = 10): FoundTool[] {
    if (tokenize(query).length === 0) return [];
    return this.index
      .search(query)
      .slice(0, limit)
      .map((hit) => ({ ...this.found[hit.id as number]!, score: Math.round(hit.score * 1000) / 1000 }));
  }
}
