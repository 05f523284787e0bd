/**
 * The bytes a large message's text was read from, while its reader hands it on: so the hub can
 * write the server's own bytes to the client instead of encoding the text again (a 1 MiB answer:
 * a fresh 1 MiB buffer, its page faults and its garbage per call, on the proxy's critical path).
 *
 * Why a module-level value (as arrival.ts, for the same reason): a message goes from the reader
 * that framed it to the HTTP reply synchronously, through several owners' callbacks whose
 * signatures should not grow for it. The reader sets it just before it hands a line on and clears
 * it just after. A writer asks `piecesFor(json)` with the text it is about to write: only the text
 * the reader decoded — or one a splice derived from it and said so (`respliced`) — has bytes
 * (compared with `===`: the same string in practice, which V8 answers by pointer; an equal copy
 * would be the same bytes too). Anything the hub built or changed (a masked secret, another era's
 * shape, a message serialised again) has none and is encoded as before. So the client receives the
 * same bytes either way.
 *
 * Only ASCII lines are carried: their bytes are their text's characters one for one (a splice's
 * offsets hold in both), and no invalid UTF-8 could pass through that encoding would have replaced.
 */

import { splice, topLevelIdEdits } from './json-splice.js';

/** Lines at least this long carry their bytes; below, encoding costs less than the bookkeeping. */
export const WIRE_BYTES_MIN = 64 * 1024;

const current: { text: string | undefined; pieces: readonly Buffer[] | undefined } = { text: undefined, pieces: undefined };

/** The reader: `text` (ASCII, decoded from exactly `bytes`) is being handed on now. */
export function handingOn(text: string, bytes: Buffer): void {
  current.text = text;
  current.pieces = [bytes];
}

/** The reader: the hand-over is done. */
export function handedOn(): void {
  current.text = undefined;
  current.pieces = undefined;
}

/**
 * `spliced` is `raw` with `edits` applied (spans in order, not overlapping, in characters = bytes):
 * when `raw` is the text being handed on, `spliced` is now, with the same bytes around the edits.
 */
export function respliced(raw: string, spliced: string, edits: ReadonlyArray<{ span: { start: number; end: number }; text: string }>): void {
  if (current.text !== raw || current.pieces?.length !== 1) return;
  const bytes = current.pieces[0]!;
  const pieces: Buffer[] = [];
  let from = 0;
  for (const { span, text } of edits) {
    pieces.push(bytes.subarray(from, span.start), Buffer.from(text));
    from = span.end;
  }
  pieces.push(bytes.subarray(from));
  current.text = spliced;
  current.pieces = pieces;
}

/**
 * `replaceTopLevelId` (json-splice.ts) that keeps a large line's bytes with the result: what a
 * connection that renumbers ids (a shared child, a 2026-07-28 child) uses to put the client's id back.
 */
export function replaceIdKeepingBytes(raw: string, idJson: string): string | undefined {
  const edits = topLevelIdEdits(raw, idJson);
  if (edits === undefined) return undefined;
  const spliced = splice(raw, edits);
  respliced(raw, spliced, edits);
  return spliced;
}

/**
 * The bytes to write for `json`, in order, when they are a reader's own; else undefined (encode
 * `json`). Defined only for the line being handed on (or its splice): a stdio line, so also the
 * answer to "can it hold a newline?" without `includes('\n')`, which on a splice (a rope of three
 * pieces) would first copy the whole text into one string.
 */
export function piecesFor(json: string): readonly Buffer[] | undefined {
  return current.text === json ? current.pieces : undefined;
}

/** The bytes `text` was decoded from, in one buffer, while its reader hands it on; else undefined. */
export function bytesOf(text: string): Buffer | undefined {
  return current.text === text && current.pieces?.length === 1 ? current.pieces[0] : undefined;
}
