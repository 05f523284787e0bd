import { describe, expect, it } from 'vitest';
import { hasFilters, listInput, NO_FILTERS, outcomeClass, PAGE_SIZE, whatOf } from './audit-model.js';

describe('the Audit screen model', () => {
  it('turns the filters into the audit.list input', () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    expect(listInput(NO_FILTERS, now)).toEqual({ limit: PAGE_SIZE });
    expect(hasFilters(NO_FILTERS)).toBe(false);
    const f = { client: ' Cursor ', server: '@work', outcome: 'error', since: '1h' };
    expect(hasFilters(f)).toBe(true);
    expect(listInput(f, now, 42)).toEqual({ limit: PAGE_SIZE, client: 'Cursor', server: '@work', outcome: 'error', since: '2026-11-28T09:00:00.000Z', before: 42 });
  });

  it('reads a line: what it named, and its outcome as a badge', () => {
    expect(whatOf({ seq: 1, t: '', kind: 'call', client: 'ui', server: 'fx', method: 'tools/call', target: 'echo', outcome: 'ok' })).toBe('tools/call echo');
    expect(whatOf({ seq: 2, t: '', kind: 'approve', client: 'api', server: '@work', target: 'alpha/add', outcome: 'approved' })).toBe('alpha/add');
    expect(whatOf({ seq: 3, t: '', kind: 'policy', client: 'relay', server: 'fx', outcome: 'blocked' })).toBe('policy');
    expect(outcomeClass('error:tool_error')).toBe('badge badge-error');
    expect(outcomeClass('approved')).toBe('badge badge-status-ok');
    expect(outcomeClass('cancelled')).toBe('badge');
  });
});
