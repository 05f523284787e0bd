/**
 * JSON and JSONC edits with jsonc-parser's syntax tree: only the text of Patchbay's own entry is
 * written (jsonc-parser's own formatter would re-indent neighbouring lines, so insertions are
 * placed and indented here), comments and formatting elsewhere stay byte for byte.
 */
import { applyEdits, findNodeAtLocation, modify, parse, parseTree, type Node } from 'jsonc-parser';
import { findJsonSyntaxError } from '../../config/json-syntax.js';
import { isRecord } from '../neutral-entry.js';
import { EditError, type ContainerEdit, type ContainerSpec, type ParseResult } from './format.js';

/** `strict`: plain JSON as JSON.parse reads it (no comments, no trailing commas); else JSONC. */
export function parseJson(text: string, strict: boolean): ParseResult {
  // The same positions and wording as config.json's errors (config/json-syntax.ts).
  const error = findJsonSyntaxError(text, { jsonc: !strict });
  if (error) {
    const hint = strict && findJsonSyntaxError(text, { jsonc: true }) === undefined ? ' (this client reads strict JSON: comments and trailing commas make it fail)' : '';
    return { ok: false, message: `${error.message} at line ${error.line}, column ${error.column}${hint}`, line: error.line, column: error.column };
  }
  const data: unknown = parse(text, [], { disallowComments: strict, allowTrailingComma: !strict, allowEmptyContent: false });
  if (!isRecord(data)) return { ok: false, message: 'the file must hold a JSON object at the top level', line: 1, column: 1 };
  return { ok: true, data };
}

interface Style {
  unit: string;
  eol: string;
  /** A one-line (minified) file stays on one line. */
  compact: boolean;
}

function detectStyle(text: string): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const unit = /^([ \t]+)["}\]]/m.exec(text)?.[1] ?? '  ';
  const trimmed = text.trim();
  return { unit, eol, compact: /^\{\s*"/.test(trimmed) && !trimmed.includes('\n') };
}

function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, offset))?.[0] ?? '';
}

function render(value: unknown, baseIndent: string, style: Style): string {
  if (style.compact) return JSON.stringify(value);
  return JSON.stringify(value, null, style.unit).split('\n').join(style.eol + baseIndent);
}

function tree(text: string): Node {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!root || root.type !== 'object') throw new EditError('the file does not hold an object at the top level');
  return root;
}

/** Inserts `"name": value` as the last property of the object node. */
function insertProperty(text: string, object: Node, name: string, value: unknown, style: Style): string {
  const props = object.children ?? [];
  const last = props[props.length - 1];
  if (last) {
    const end = last.offset + last.length;
    if (style.compact) return `${text.slice(0, end)},${JSON.stringify(name)}:${render(value, '', style)}${text.slice(end)}`;
    const indent = lineIndent(text, last.offset);
    return `${text.slice(0, end)},${style.eol}${indent}${JSON.stringify(name)}: ${render(value, indent, style)}${text.slice(end)}`;
  }
  const open = object.offset + 1;
  const close = object.offset + object.length - 1;
  const objectIndent = lineIndent(text, object.offset);
  const indent = objectIndent + style.unit;
  const property = `${JSON.stringify(name)}: ${render(value, indent, style)}`;
  const inside = text.slice(open, close);
  if (style.compact) return `${text.slice(0, open)}${JSON.stringify(name)}:${render(value, '', style)}${text.slice(open)}`;
  // An empty object becomes a block; one holding only comments keeps them after the new property.
  if (inside.trim() === '') return `${text.slice(0, open)}${style.eol}${indent}${property}${style.eol}${objectIndent}${text.slice(close)}`;
  return `${text.slice(0, open)}${style.eol}${indent}${property}${text.slice(open)}`;
}

function applyOne(text: string, spec: ContainerSpec, edit: ContainerEdit, style: Style): string {
  const root = tree(text);
  const container = findNodeAtLocation(root, [spec.key]);
  if (edit.value === undefined) {
    if (!container || container.type !== 'object' || !findNodeAtLocation(container, [edit.name])) return text;
    // Removal leaves no new text to format, so jsonc-parser's own edit is byte-exact around it.
    return applyEdits(text, modify(text, [spec.key, edit.name], undefined, {}));
  }
  if (!container || container.type === 'null') {
    if (container) {
      // `"mcpServers": null`: replace the null with an object.
      const indent = lineIndent(text, container.offset);
      return text.slice(0, container.offset) + render({ [edit.name]: edit.value }, indent, style) + text.slice(container.offset + container.length);
    }
    return insertProperty(text, root, spec.key, { [edit.name]: edit.value }, style);
  }
  if (spec.container === 'map') {
    if (container.type !== 'object') throw new EditError(`"${spec.key}" is not an object`);
    const existing = findNodeAtLocation(container, [edit.name]);
    if (existing) {
      const indent = lineIndent(text, existing.parent?.offset ?? existing.offset);
      return text.slice(0, existing.offset) + render(edit.value, indent, style) + text.slice(existing.offset + existing.length);
    }
    return insertProperty(text, container, edit.name, edit.value, style);
  }
  throw new EditError(`"${spec.key}" lists are not supported in JSON files`);
}

export function editJson(text: string, spec: ContainerSpec, edits: readonly ContainerEdit[]): string {
  const style = detectStyle(text);
  let out = text;
  for (const edit of edits) out = applyOne(out, spec, edit, style);
  return out;
}
