/**
 * What a tool definition is, for pinning: the parts a model reads (name, title, description,
 * input and output schema, annotations), as canonical JSON (keys sorted) so that a server
 * re-ordering keys is not a change; its SHA-256 digest; and a readable diff of two versions.
 */
import { createHash } from 'node:crypto';
import { createTwoFilesPatch } from 'diff';

/** A tool as `tools/list` gives it; only the fields that matter here are typed. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  [key: string]: unknown;
}

const PINNED_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/** The pinned part of a definition (unknown and `_meta` fields left out: they are not the model's). */
export function pinnedPart(tool: ToolDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of PINNED_FIELDS) if (tool[field] !== undefined) out[field] = tool[field];
  return out;
}

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown, indent?: number): string {
  return JSON.stringify(sortKeys(value), null, indent);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

export function toolDigest(tool: ToolDefinition): string {
  return createHash('sha256').update(canonicalJson(pinnedPart(tool))).digest('hex');
}

/**
 * The definition as a person reads it: the description wrapped into lines of words (so one
 * changed sentence is a small diff, not one long changed line), then each schema as indented JSON.
 */
export function readableDefinition(tool: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const field of PINNED_FIELDS) {
    const value = tool[field];
    if (value === undefined) continue;
    if (typeof value === 'string') {
      lines.push(`${field}:`);
      for (const paragraph of value.split('\n')) lines.push(...wrap(paragraph, 80).map((l) => `  ${l}`));
    } else {
      lines.push(`${field}:`);
      lines.push(...canonicalJson(value, 2).split('\n').map((l) => `  ${l}`));
    }
  }
  return lines.join('\n') + '\n';
}

/** A unified diff from the approved definition to the current one. */
export function definitionDiff(label: string, before: Record<string, unknown>, after: Record<string, unknown>): string {
  return createTwoFilesPatch(label, label, readableDefinition(before), readableDefinition(after), 'approved', 'now', { context: 3 });
}

function wrap(text: string, width: number): string[] {
  const words = text.split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return [''];
  const out: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  out.push(line);
  return out;
}
