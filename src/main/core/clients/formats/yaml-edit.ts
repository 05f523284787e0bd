/**
 * YAML edits (Goose, Continue). `yaml`'s Document API keeps comments but re-prints the whole
 * file on output (spacing, sequence indentation), so the edit splices text instead: the parsed
 * document gives each entry's source range, and only those lines are replaced with a rendering
 * of Patchbay's entry at the same indentation. When the layout is unusual (flow collections),
 * the Document API is the fallback; the caller verifies either result by parsing it again.
 */
import YAML, { isMap, isScalar, isSeq, type Document, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { EditError, type ContainerEdit, type ContainerSpec, type ParseResult } from './format.js';

export function parseYaml(text: string): ParseResult {
  const docs = YAML.parseAllDocuments(text);
  if (docs.length > 1) return { ok: false, message: 'the file holds several YAML documents; Patchbay edits single-document files only' };
  const doc = docs[0];
  if (!doc) return { ok: true, data: {} };
  if ('errors' in doc && doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const pos = first.linePos?.[0];
    const message = first.message.split('\n')[0] ?? 'invalid YAML';
    return pos ? { ok: false, message, line: pos.line, column: pos.col } : { ok: false, message };
  }
  const data: unknown = doc.toJS({ maxAliasCount: 100 });
  if (data !== null && data !== undefined && (typeof data !== 'object' || Array.isArray(data))) {
    return { ok: false, message: 'the file must hold a mapping (key: value pairs) at the top level' };
  }
  return { ok: true, data: data ?? {} };
}

interface Style {
  indent: number;
  indentSeq: boolean;
  eol: string;
}

function detectStyle(text: string): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  let indent = 0;
  let indentSeq: boolean | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const lead = line.length - line.trimStart().length;
    if (lead > 0 && (indent === 0 || lead < indent)) indent = lead;
    // A `key:` line followed by a `- item` line tells how sequences are indented.
    if (indentSeq === undefined && /:\s*(#.*)?$/.test(line)) {
      const next = lines[i + 1] ?? '';
      if (next.trimStart().startsWith('- ')) indentSeq = next.length - next.trimStart().length > lead;
    }
  }
  return { indent: indent === 0 ? 2 : Math.min(indent, 8), indentSeq: indentSeq ?? true, eol };
}

function stringify(value: unknown, style: Style): string {
  return YAML.stringify(value, { indent: style.indent, indentSeq: style.indentSeq, lineWidth: 0 });
}

/** `rendered` (ending with a newline) indented by `column` spaces, in the file's line endings. */
function indentBlock(rendered: string, column: number, eol: string): string {
  const pad = ' '.repeat(column);
  return rendered
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => (line === '' ? line : pad + line))
    .join(eol) + eol;
}

function lineStart(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1;
}

/** The start of the line after the one holding `pos` (or `pos` itself when it starts a line). */
function lineEndAfter(text: string, pos: number): number {
  if (pos === 0 || text[pos - 1] === '\n') return pos;
  const nl = text.indexOf('\n', pos);
  return nl === -1 ? text.length : nl + 1;
}

function nodeEnd(node: { range?: [number, number, number] | null } | null | undefined, fallback: number): number {
  return node?.range?.[1] ?? fallback;
}

/** The lines a block-map pair or a block-sequence item occupies. */
function region(text: string, start: number, end: number): [number, number] {
  return [lineStart(text, start), lineEndAfter(text, end)];
}

function splice(text: string, from: number, to: number, insert: string): string {
  return text.slice(0, from) + insert + text.slice(to);
}

/** Text that ends with a line break, so an appended block starts on its own line. */
function withFinalEol(text: string, eol: string): string {
  return text === '' || text.endsWith('\n') ? text : text + eol;
}

function topPair(doc: Document, key: string): Pair | undefined {
  const contents = doc.contents;
  if (!contents) return undefined;
  if (!isMap(contents)) throw new EditError('the file must hold a mapping at the top level');
  return (contents as YAMLMap).items.find((p) => isScalar(p.key) && p.key.value === key) as Pair | undefined;
}

function applyOne(text: string, spec: ContainerSpec, edit: ContainerEdit, style: Style): string {
  const doc = YAML.parseDocument(text);
  if (doc.errors.length > 0) throw new EditError(doc.errors[0]!.message);
  const pair = topPair(doc, spec.key);
  const value = pair?.value;
  const isBlockMap = isMap(value) && !value.flow && value.items.length > 0;
  const isBlockSeq = isSeq(value) && !value.flow && value.items.length > 0;

  if (edit.value === undefined) {
    if (spec.container === 'map' && isBlockMap) {
      const entry = (value as YAMLMap).items.find((p) => isScalar(p.key) && p.key.value === edit.name);
      if (!entry || !isScalar(entry.key) || !entry.key.range) return text;
      const [from, to] = region(text, entry.key.range[0], nodeEnd(entry.value as never, entry.key.range[1]));
      return splice(text, from, to, '');
    }
    if (spec.container === 'list' && isBlockSeq) {
      const item = (value as YAMLSeq).items.find((i) => isMap(i) && i.get('name') === edit.name) as YAMLMap | undefined;
      if (!item?.range) return text;
      const [from, to] = region(text, item.range[0], item.range[1]);
      return splice(text, from, to, '');
    }
    if (value === undefined || value === null || (isScalar(value) && value.value === null)) return text;
    throw new EditError('unusual layout');
  }

  if (!pair) {
    const block = stringify({ [spec.key]: spec.container === 'map' ? { [edit.name]: edit.value } : [edit.value] }, style);
    return withFinalEol(text, style.eol) + indentBlock(block, 0, style.eol);
  }
  if (spec.container === 'map' && isBlockMap) {
    const map = value as YAMLMap;
    const entry = map.items.find((p) => isScalar(p.key) && p.key.value === edit.name);
    const firstKey = map.items[0]?.key;
    const keyStart = isScalar(firstKey) && firstKey.range ? firstKey.range[0] : undefined;
    if (keyStart === undefined) throw new EditError('unusual layout');
    const column = keyStart - lineStart(text, keyStart);
    const rendered = indentBlock(stringify({ [edit.name]: edit.value }, style), column, style.eol);
    if (entry && isScalar(entry.key) && entry.key.range) {
      const [from, to] = region(text, entry.key.range[0], nodeEnd(entry.value as never, entry.key.range[1]));
      return splice(text, from, to, rendered);
    }
    const last = map.items[map.items.length - 1]!;
    const lastKey = last.key as { range?: [number, number, number] };
    const end = lineEndAfter(text, nodeEnd(last.value as never, lastKey.range?.[1] ?? text.length));
    return withFinalEol(text.slice(0, end), style.eol) + rendered + text.slice(end);
  }
  if (spec.container === 'list' && isBlockSeq) {
    const seq = value as YAMLSeq;
    const first = seq.items[0] as { range?: [number, number, number] } | undefined;
    if (!first?.range) throw new EditError('unusual layout');
    const firstLine = text.slice(lineStart(text, first.range[0]));
    const column = firstLine.length - firstLine.trimStart().length;
    const rendered = indentBlock(stringify([edit.value], style), column, style.eol);
    const existing = seq.items.find((i) => isMap(i) && i.get('name') === edit.name) as YAMLMap | undefined;
    if (existing?.range) {
      const [from, to] = region(text, existing.range[0], existing.range[1]);
      return splice(text, from, to, rendered);
    }
    const last = seq.items[seq.items.length - 1] as { range?: [number, number, number] };
    const end = lineEndAfter(text, last.range?.[1] ?? text.length);
    return withFinalEol(text.slice(0, end), style.eol) + rendered + text.slice(end);
  }
  // An empty, null or flow-style container: rewrite just that top-level key as a block.
  const isEmpty = value === null || value === undefined || (isScalar(value) && value.value === null) || ((isMap(value) || isSeq(value)) && value.items.length === 0);
  if (!isEmpty || !isScalar(pair.key) || !pair.key.range) throw new EditError('unusual layout');
  const current = spec.container === 'map' ? { [edit.name]: edit.value } : [edit.value];
  const block = indentBlock(stringify({ [spec.key]: current }, style), 0, style.eol);
  const [from, to] = region(text, pair.key.range[0], nodeEnd(value as never, pair.key.range[1]));
  return splice(text, from, to, block);
}

export function editYaml(text: string, spec: ContainerSpec, edits: readonly ContainerEdit[]): string {
  const style = detectStyle(text);
  let out = text;
  for (const edit of edits) out = applyOne(out, spec, edit, style);
  return out;
}

/** The fallback: the Document API, which keeps comments and data but may re-space other lines. */
export function editYamlWithDocument(text: string, spec: ContainerSpec, edits: readonly ContainerEdit[]): string {
  const style = detectStyle(text);
  const doc = YAML.parseDocument(text);
  if (doc.errors.length > 0) throw new EditError(doc.errors[0]!.message);
  for (const edit of edits) {
    if (spec.container === 'map') {
      if (edit.value === undefined) doc.deleteIn([spec.key, edit.name]);
      else doc.setIn([spec.key, edit.name], doc.createNode(edit.value));
      continue;
    }
    const seq = doc.get(spec.key, true);
    const list = isSeq(seq) ? seq : undefined;
    const index = list ? list.items.findIndex((i) => isMap(i) && i.get('name') === edit.name) : -1;
    if (edit.value === undefined) {
      if (list && index >= 0) list.delete(index);
    } else if (list && index >= 0) list.set(index, doc.createNode(edit.value));
    else if (list) list.add(doc.createNode(edit.value));
    else doc.set(spec.key, doc.createNode([edit.value]));
  }
  const out = doc.toString({ indent: style.indent, indentSeq: style.indentSeq, lineWidth: 0 });
  return style.eol === '\n' ? out : out.replace(/\r?\n/g, style.eol);
}
