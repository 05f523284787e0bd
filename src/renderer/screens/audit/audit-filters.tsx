/** The Audit screen's filters: client (part of its name), server, outcome, since; and the count. */
import { NO_FILTERS, hasFilters, OUTCOME_CHOICES, SINCE_CHOICES, type AuditFilters } from './audit-model.js';

export function AuditFilterBar({ filters, servers, onChange, count, more }: { filters: AuditFilters; servers: string[]; onChange(f: AuditFilters): void; count: number; more: boolean }) {
  const set = (patch: Partial<AuditFilters>): void => onChange({ ...filters, ...patch });
  return (
    <div className="toolbar audit-filters" role="group" aria-label="Filter the audit trail">
      <label className="visually-hidden" htmlFor="audit-client">Client</label>
      <input id="audit-client" className="input narrow" type="search" placeholder="Client" value={filters.client} onChange={(e) => set({ client: e.target.value })} data-testid="audit-client-filter" />
      <label className="visually-hidden" htmlFor="audit-server">Server</label>
      <select id="audit-server" className="input" value={filters.server} onChange={(e) => set({ server: e.target.value })} data-testid="audit-server-filter">
        <option value="">All servers</option>
        {servers.map((s) => (
          <option key={s} value={s}>{s}</option>
        ))}
      </select>
      <label className="visually-hidden" htmlFor="audit-outcome">Outcome</label>
      <select id="audit-outcome" className="input" value={filters.outcome} onChange={(e) => set({ outcome: e.target.value })} data-testid="audit-outcome-filter">
        <option value="">Any outcome</option>
        {OUTCOME_CHOICES.map((o) => (
          <option key={o.value} value={o.value}>{o.label}</option>
        ))}
      </select>
      <label className="visually-hidden" htmlFor="audit-since">Since</label>
      <select id="audit-since" className="input" value={filters.since} onChange={(e) => set({ since: e.target.value })} data-testid="audit-since-filter">
        <option value="">Any time</option>
        {SINCE_CHOICES.map((c) => (
          <option key={c.value} value={c.value}>{c.label}</option>
        ))}
      </select>
      {hasFilters(filters) && (
        <button type="button" className="button button-small" onClick={() => onChange(NO_FILTERS)}>
          Clear filters
        </button>
      )}
      <span className="muted small count-line" data-testid="audit-count">
        {count.toLocaleString()} line{count === 1 ? '' : 's'}
        {more ? ', older ones below' : ''}
      </span>
    </div>
  );
}
