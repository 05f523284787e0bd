/**
 * Reading and editing a client's config file in its own format. Every edit is targeted (only
 * Patchbay's entries change; every other byte stays), and every result is checked by parsing
 * it again with a real parser and comparing it with the intended data: an edit that would change
 * anything else is refused, never written.
 */
import { isRecord } from '../neutral-entry.js';
import type { ClientFormat } from '../client-defs.js';
import { editJson, parseJson } from './json-edit.js';
import { editToml, parseToml } from './toml-edit.js';
import { editYaml, editYamlWithDocument, parseYaml } from './yaml-edit.js';

export type ParseResult = { ok: true; data: unknown } | { ok: false; message: string; line?: number; column?: number };

/** One change to the servers container: set an entry (add or replace) or remove it. */
export interface ContainerEdit {
  name: string;
  /** The client's object for the entry; undefined removes it. */
  value: Record<string, unknown> | undefined;
}

export interface ContainerSpec {
  key: string;
  container: 'map' | 'list';
}

/** Patchbay could not make the change without touching something else; nothing was written. */
export class EditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EditError';
  }
}

export function parseClientText(format: ClientFormat, text: string): ParseResult {
  switch (format) {
    case 'json':
      return parseJson(text, true);
    case 'jsonc':
      return parseJson(text, false);
    case 'toml':
      return parseToml(text);
    case 'yaml':
      return parseYaml(text);
  }
}

/** The entries of the servers container, or a message when the container has the wrong type. */
export function containerEntries(data: unknown, spec: ContainerSpec): { ok: true; entries: Array<[string, unknown]> } | { ok: false; message: string } {
  if (data === undefined || data === null) return { ok: true, entries: [] };
  if (!isRecord(data)) return { ok: false, message: 'the file does not hold an object at the top level' };
  const container = data[spec.key];
  if (container === undefined || container === null) return { ok: true, entries: [] };
  if (spec.container === 'map') {
    if (!isRecord(container)) return { ok: false, message: `"${spec.key}" is not an object` };
    return { ok: true, entries: Object.entries(container) };
  }
  if (!Array.isArray(container)) return { ok: false, message: `"${spec.key}" is not a list` };
  const entries: Array<[string, unknown]> = [];
  for (const item of container) if (isRecord(item) && typeof item.name === 'string') entries.push([item.name, item]);
  return { ok: true, entries };
}

/** The data after the edits, computed on plain values: what the edited text must parse to. */
export function applyToData(data: unknown, spec: ContainerSpec, edits: readonly ContainerEdit[]): unknown {
  const root: Record<string, unknown> = isRecord(data) ? (cloneData(data) as Record<string, unknown>) : {};
  if (spec.container === 'map') {
    const container: Record<string, unknown> = isRecord(root[spec.key]) ? (root[spec.key] as Record<string, unknown>) : {};
    for (const edit of edits) {
      if (edit.value === undefined) delete container[edit.name];
      else container[edit.name] = edit.value;
    }
    root[spec.key] = container;
  } else {
    const list: unknown[] = Array.isArray(root[spec.key]) ? (root[spec.key] as unknown[]) : [];
    for (const edit of edits) {
      const index = list.findIndex((item) => isRecord(item) && item.name === edit.name);
      if (edit.value === undefined) {
        if (index >= 0) list.splice(index, 1);
      } else if (index >= 0) list[index] = edit.value;
      else list.push(edit.value);
    }
    root[spec.key] = list;
  }
  return root;
}

/**
 * The file's new text with the edits applied. `text` must parse (the caller checked). Throws
 * EditError when no targeted edit reproduces exactly the intended data.
 */
export function editClientText(format: ClientFormat, text: string, spec: ContainerSpec, edits: readonly ContainerEdit[]): string {
  if (edits.length === 0) return text;
  const before = parseClientText(format, text);
  if (!before.ok) throw new EditError(`the file does not parse: ${before.message}`);
  const expected = applyToData(before.data, spec, edits);
  const attempts: Array<() => string> = [];
  if (format === 'json' || format === 'jsonc') attempts.push(() => editJson(text, spec, edits));
  if (format === 'toml') attempts.push(() => editToml(text, spec, edits));
  if (format === 'yaml') attempts.push(() => editYaml(text, spec, edits), () => editYamlWithDocument(text, spec, edits));
  let lastProblem = 'the edited file did not match the intended content';
  for (const attempt of attempts) {
    let next: string;
    try {
      next = attempt();
    } catch (err) {
      lastProblem = err instanceof Error ? err.message : String(err);
      continue;
    }
    const after = parseClientText(format, next);
    if (!after.ok) {
      lastProblem = `the edited file would not parse (${after.message})`;
      continue;
    }
    if (sameData(after.data, expected)) return next;
  }
  throw new EditError(`Patchbay could not change this file without touching other content, so it left it alone: ${lastProblem}`);
}

/** A deep copy of plain objects and arrays; value objects (TOML date-times) are shared as they are. */
function cloneData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneData);
  if (isRecord(value) && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cloneData(v)]));
  }
  return value;
}

/** Structural equality of parsed data: key order ignored, array order kept, dates by value. */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameData(item, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  // Dates and other value objects (TOML date-times) compare by their text.
  const plainA = Object.getPrototypeOf(a) === Object.prototype || Object.getPrototypeOf(a) === null;
  const plainB = Object.getPrototypeOf(b) === Object.prototype || Object.getPrototypeOf(b) === null;
  if (!plainA || !plainB) return !plainA && !plainB && String(a) === String(b);
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  return keysA.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameData(a[key], b[key]));
}
