/**
 * TOML edits (Codex's config.toml): Patchbay's entries are written as `[mcp_servers.<name>]`
 * tables; only the lines of those tables are replaced, inserted or removed. No TOML library on
 * npm both keeps comments and writes idiomatic tables (toml-patch, the best candidate, writes new
 * entries as dotted inline keys at the top of the file), so the edit is done on lines here and
 * checked with smol-toml, a spec-compliant parser, by the caller.
 */
import { parse as parseTomlText, TomlError } from 'smol-toml';
import { EditError, type ContainerEdit, type ContainerSpec, type ParseResult } from './format.js';
import { scanTomlHeaders, type TomlHeader } from './toml-scan.js';

export function parseToml(text: string): ParseResult {
  try {
    return { ok: true, data: parseTomlText(text) };
  } catch (err) {
    if (err instanceof TomlError) {
      const message = err.message.split('\n')[0] ?? 'invalid TOML';
      return { ok: false, message: `${message} (line ${err.line}, column ${err.column})`, line: err.line, column: err.column };
    }
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

export function tomlString(value: string): string {
  // JSON's escapes (\" \\ \b \f \n \r \t \uXXXX) are all valid TOML basic-string escapes; DEL is not escaped by JSON.
  return JSON.stringify(value).replace(/\u007f/g, '\\u007F');
}

export function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

export function tomlValue(value: unknown): string {
  if (typeof value === 'string') return tomlString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const pairs = Object.entries(value).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`);
    return pairs.length === 0 ? '{}' : `{ ${pairs.join(', ')} }`;
  }
  throw new EditError(`cannot write ${typeof value} values to TOML`);
}

function renderTable(key: string, name: string, value: Record<string, unknown>): string[] {
  return [`[${tomlKey(key)}.${tomlKey(name)}]`, ...Object.entries(value).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`)];
}

interface Block extends TomlHeader {
  /** Last line of the table's own content: trailing blank and comment lines belong to what follows. */
  contentEnd: number;
}

function blocks(lines: readonly string[]): Block[] {
  const headers = scanTomlHeaders(lines);
  return headers.map((header, index) => {
    const next = headers[index + 1]?.line ?? lines.length;
    let contentEnd = header.line;
    for (let i = header.line + 1; i < next; i++) {
      const trimmed = (lines[i] ?? '').trim();
      if (trimmed !== '' && !trimmed.startsWith('#')) contentEnd = i;
    }
    return { ...header, contentEnd };
  });
}

const isBlank = (line: string | undefined): boolean => line !== undefined && line.trim() === '';

function applyOne(lines: string[], spec: ContainerSpec, edit: ContainerEdit): void {
  const all = blocks(lines);
  const inContainer = all.filter((b) => !b.array && b.path[0] === spec.key);
  const own = inContainer.filter((b) => b.path.length >= 2 && b.path[1] === edit.name);
  if (all.some((b) => b.array && b.path[0] === spec.key)) throw new EditError(`"${spec.key}" is written as an array of tables`);
  // Bottom-up so earlier line numbers stay valid.
  const removeOwn = (keepFirst: boolean): void => {
    for (const block of [...own].reverse()) {
      if (keepFirst && block === own[0]) continue;
      lines.splice(block.line, block.contentEnd - block.line + 1);
      // Do not leave two blank lines where the table was.
      if (isBlank(lines[block.line - 1]) && (isBlank(lines[block.line]) || block.line >= lines.length - 1)) lines.splice(block.line - 1, 1);
    }
  };
  if (edit.value === undefined) {
    removeOwn(false);
    return;
  }
  const table = renderTable(spec.key, edit.name, edit.value);
  const first = own[0];
  if (first) {
    removeOwn(true);
    lines.splice(first.line, first.contentEnd - first.line + 1, ...table);
    return;
  }
  const anchor = inContainer[inContainer.length - 1];
  if (anchor) {
    lines.splice(anchor.contentEnd + 1, 0, '', ...table);
    return;
  }
  // No table of the container yet: append at the end, one blank line apart.
  while (lines.length > 0 && isBlank(lines[lines.length - 1])) lines.pop();
  if (lines.length > 0) lines.push('');
  lines.push(...table, '');
}

export function editToml(text: string, spec: ContainerSpec, edits: readonly ContainerEdit[]): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  for (const edit of edits) applyOne(lines, spec, edit);
  return lines.join(eol);
}
