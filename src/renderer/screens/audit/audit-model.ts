/** The Audit screen's filters as the `audit.list` input, and how a line reads in the table. */
import type { AuditLineDto, AuditListInput } from '../../../shared/api/audit-contract.js';

export interface AuditFilters {
  /** Part of the client (`Cursor`, `relay`, `ui`). */
  client: string;
  /** A server id or `@profile`; empty: all. */
  server: string;
  /** `ok`, `error`, …; empty: any. */
  outcome: string;
  /** A key of SINCE_CHOICES; empty: any time. */
  since: string;
}

export const NO_FILTERS: AuditFilters = { client: '', server: '', outcome: '', since: '' };

export const SINCE_CHOICES: Array<{ value: string; label: string; ms: number }> = [
  { value: '1h', label: 'Last hour', ms: 3_600_000 },
  { value: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
];

/** `error` matches every `error:<kind>` (the API's outcome families). */
export const OUTCOME_CHOICES: Array<{ value: string; label: string }> = [
  { value: 'ok', label: 'ok' },
  { value: 'error', label: 'errors' },
  { value: 'cancelled', label: 'cancelled' },
  { value: 'timeout', label: 'timeout' },
  { value: 'approved', label: 'approved' },
];

export const PAGE_SIZE = 100;

export function hasFilters(f: AuditFilters): boolean {
  return f.client.trim() !== '' || f.server !== '' || f.outcome !== '' || f.since !== '';
}

export function listInput(f: AuditFilters, now: number, before?: number): AuditListInput {
  const input: AuditListInput = { limit: PAGE_SIZE };
  if (f.client.trim() !== '') input.client = f.client.trim();
  if (f.server !== '') input.server = f.server;
  if (f.outcome !== '') input.outcome = f.outcome;
  const since = SINCE_CHOICES.find((c) => c.value === f.since);
  if (since) input.since = new Date(now - since.ms).toISOString();
  if (before !== undefined) input.before = before;
  return input;
}

/** The method and what it named: `tools/call echo`; an approval names the tool it approved. */
export function whatOf(l: AuditLineDto): string {
  return [l.method, l.target].filter((x) => x !== undefined && x !== '').join(' ') || l.kind;
}

export function outcomeClass(outcome: string): string {
  if (outcome === 'ok' || outcome === 'approved') return 'badge badge-status-ok';
  if (outcome.startsWith('error') || outcome === 'timeout' || outcome === 'blocked' || outcome === 'denied') return 'badge badge-error';
  return 'badge';
}
