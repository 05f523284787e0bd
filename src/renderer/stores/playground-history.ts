/**
 * The playground's history of tool calls, per target (a server id, or `@name` for a profile):
 * each call made from the playground with its tool, arguments, when, status and duration, and its
 * result (for comparing two), newest last. Kept in localStorage so it survives a reload, and
 * bounded there: the last MAX_PER_TARGET calls of the MAX_TARGETS targets used last, a result
 * over MAX_RESULT_CHARS of JSON not kept (the entry says so), and the whole under MAX_TOTAL_CHARS.
 */
import type { PlaygroundOutcome } from '../../shared/api/playground-contract.js';

export interface HistoryEntry {
  /** Unique in this browser (the time it started, made unique). */
  id: number;
  tool: string;
  args: Record<string, unknown>;
  /** When it started (ms since the epoch). */
  at: number;
  status: 'ok' | 'tool error' | PlaygroundOutcome['status'];
  durationMs: number;
  /** The result, or the error; absent when it was too large to keep. */
  result?: unknown;
  resultDropped?: boolean;
}

export type History = Record<string, HistoryEntry[]>;

export const HISTORY_KEY = 'patchbay.playground.history.v1';
export const MAX_PER_TARGET = 50;
const MAX_TARGETS = 20;
const MAX_RESULT_CHARS = 64_000;
const MAX_TOTAL_CHARS = 2_000_000;

let lastId = 0;

/** The entry for a finished call. */
export function historyEntry(tool: string, args: Record<string, unknown>, startedAt: number, outcome: PlaygroundOutcome): HistoryEntry {
  const id = Math.max(startedAt, lastId + 1);
  lastId = id;
  const toolError = outcome.status === 'ok' && (outcome.result as { isError?: unknown } | undefined)?.isError === true;
  const result = outcome.status === 'ok' ? outcome.result : outcome.error;
  const entry: HistoryEntry = { id, tool, args, at: startedAt, status: toolError ? 'tool error' : outcome.status, durationMs: outcome.latencyMs };
  if ((JSON.stringify(result) ?? '').length <= MAX_RESULT_CHARS) entry.result = result;
  else entry.resultDropped = true;
  return entry;
}

/** The history with one more call of `target`, within the bounds. */
export function withEntry(history: History, target: string, entry: HistoryEntry): History {
  const next: History = { ...history, [target]: [...(history[target] ?? []), entry].slice(-MAX_PER_TARGET) };
  const targets = Object.keys(next).sort((a, b) => lastAt(next[b]) - lastAt(next[a]));
  for (const old of targets.slice(MAX_TARGETS)) delete next[old];
  return next;
}

function lastAt(entries: HistoryEntry[] | undefined): number {
  return entries?.[entries.length - 1]?.at ?? 0;
}

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // storage disabled: the history lives as long as the page
  }
}

export function loadHistory(): History {
  try {
    const raw = storage()?.getItem(HISTORY_KEY);
    const parsed = raw ? (JSON.parse(raw) as unknown) : {};
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const history: History = {};
    for (const [target, entries] of Object.entries(parsed as Record<string, unknown>)) {
      if (Array.isArray(entries)) history[target] = entries.filter((e): e is HistoryEntry => typeof (e as HistoryEntry)?.tool === 'string' && typeof (e as HistoryEntry).id === 'number');
    }
    lastId = Math.max(lastId, ...Object.values(history).flat().map((e) => e.id));
    return history;
  } catch {
    return {};
  }
}

/** Writes the history; the oldest calls go first while it is over the size bound. */
export function saveHistory(history: History): void {
  const store = storage();
  if (!store) return;
  let json = JSON.stringify(history);
  const copy: History = { ...history };
  while (json.length > MAX_TOTAL_CHARS) {
    const oldest = Object.keys(copy).sort((a, b) => (copy[a]![0]?.at ?? Infinity) - (copy[b]![0]?.at ?? Infinity))[0];
    if (oldest === undefined) break;
    copy[oldest] = copy[oldest]!.slice(1);
    if (copy[oldest]!.length === 0) delete copy[oldest];
    json = JSON.stringify(copy);
  }
  try {
    store.setItem(HISTORY_KEY, json);
  } catch {
    // Quota: the page keeps it; the next save tries again.
  }
}
