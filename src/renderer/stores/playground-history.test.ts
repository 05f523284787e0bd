import { describe, expect, it } from 'vitest';
import { HISTORY_KEY, historyEntry, loadHistory, MAX_PER_TARGET, saveHistory, withEntry, type History } from './playground-history.js';
import { createPlaygroundStore } from './playground-store.js';

const ok = (result: unknown) => ({ id: 'ui-1', status: 'ok' as const, result, latencyMs: 12.5 });

describe('playground history', () => {
  it('records status, duration and result; a failed tool is a tool error; a huge result is not kept', () => {
    expect(historyEntry('echo', { text: 'a' }, 1000, ok({ content: [] }))).toMatchObject({ tool: 'echo', args: { text: 'a' }, at: 1000, status: 'ok', durationMs: 12.5, result: { content: [] } });
    expect(historyEntry('fail', {}, 1001, ok({ isError: true, content: [] })).status).toBe('tool error');
    expect(historyEntry('slow', {}, 1002, { id: 'ui-2', status: 'timeout', latencyMs: 5, error: { code: -32001, message: 'late' } })).toMatchObject({ status: 'timeout', result: { message: 'late' } });
    const big = historyEntry('big', {}, 1003, ok({ text: 'x'.repeat(100_000) }));
    expect(big.result).toBeUndefined();
    expect(big.resultDropped).toBe(true);
  });

  it('keeps the last calls of each target, ids unique even at the same instant', () => {
    let history: History = {};
    for (let i = 0; i < MAX_PER_TARGET + 5; i++) history = withEntry(history, 'demo', historyEntry('echo', { i }, 5000, ok({})));
    history = withEntry(history, '@pair', historyEntry('alpha__echo', {}, 5000, ok({})));
    expect(history.demo).toHaveLength(MAX_PER_TARGET);
    expect(history.demo![0]!.args).toEqual({ i: 5 });
    expect(new Set(history.demo!.map((e) => e.id)).size).toBe(MAX_PER_TARGET);
    expect(history['@pair']).toHaveLength(1);
  });

  it('survives a reload through localStorage; the store records and clears per target', () => {
    localStorage.removeItem(HISTORY_KEY);
    const store = createPlaygroundStore();
    store.getState().historyRecorded('demo', historyEntry('echo', { text: 'kept' }, 7000, ok({ content: [{ type: 'text', text: 'kept' }] })));
    expect(loadHistory().demo![0]!.args).toEqual({ text: 'kept' });
    expect(createPlaygroundStore().getState().history.demo).toHaveLength(1);
    store.getState().historyCleared('demo');
    expect(loadHistory().demo).toBeUndefined();
    localStorage.setItem(HISTORY_KEY, 'not json');
    expect(loadHistory()).toEqual({});
    saveHistory({});
  });
});
