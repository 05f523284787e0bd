/** The Audit screen's filters: client (part of its name), server, outcome, since; and the count. */
import { NO_FILTERS, hasFilters, OUTCOME_CHOICES, SINCE_CHOICES, type AuditFilters } from './audit-model.js';

export function AuditFilterBar({ filters, servers, onChange, count, more }: { filters: AuditFilters; servers: string[]; onChange(f: AuditFilters): void; count: number; more: boolean }) {
  const set = (patch: Partial<AuditFilters>): void => onChange({ ...filters, ...patch });
  return (
    <div className="toolbar audit-filters" role="group" aria-label="Filter the audit trail">
      <label className="visually-hidden" htmlFor="audit-client">Client</label>
      <input id="audit-client" className="input narrow" type="search" placeholder="Client" value={filters.client} onChange={(e) => set({ client: e.target.value })} data-testid="audit-client-filter" />
      <FilterSelect id="audit-server" label="Server" value={filters.server} onChange={(server) => set({ server })} any="All servers" choices={servers.map((s) => ({ value: s, label: s }))} />
      <FilterSelect id="audit-outcome" label="Outcome" value={filters.outcome} onChange={(outcome) => set({ outcome })} any="Any outcome" choices={OUTCOME_CHOICES} />
      <FilterSelect id="audit-since" label="Since" value={filters.since} onChange={(since) => set({ since })} any="Any time" choices={SINCE_CHOICES} />
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

/** One filter: a select whose first choice is "any"; its label is for screen readers (the choices say what it is). */
function FilterSelect(props: { id: string; label: string; value: string; onChange(value: string): void; any: string; choices: ReadonlyArray<{ value: string; label: string }> }) {
  return (
    <>
      <label className="visually-hidden" htmlFor={props.id}>{props.label}</label>
      <select id={props.id} className="input" value={props.value} onChange={(e) => props.onChange(e.target.value)} data-testid={`${props.id}-filter`}>
        <option value="">{props.any}</option>
        {props.choices.map((c) => (
          <option key={c.value} value={c.value}>{c.label}</option>
        ))}
      </select>
    </>
  );
}
