/**
 * Rows of name → value (env vars, HTTP headers). A value can be a stored key: the picker writes
 * `${secret:NAME}`, which the engine resolves only when the server starts.
 */
import { useId } from 'react';
import { href } from '../../app/router.js';

export interface KeyValueRow {
  key: string;
  value: string;
}

export function KeyValueEditor(props: {
  legend: string;
  rows: KeyValueRow[];
  onChange(rows: KeyValueRow[]): void;
  secretNames: string[];
  keyLabel: string;
  addLabel: string;
  error?: string | undefined;
  testId: string;
}) {
  const base = useId();
  const { rows, onChange } = props;
  const update = (i: number, patch: Partial<KeyValueRow>): void => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const errorId = `${base}-error`;
  return (
    <fieldset className="fieldset" data-testid={props.testId} aria-describedby={props.error ? errorId : undefined}>
      <legend>{props.legend}</legend>
      {rows.length === 0 && <p className="muted small">None.</p>}
      {rows.map((row, i) => {
        const secret = /^\$\{secret:([^}]*)\}$/.exec(row.value)?.[1];
        return (
          <div className="kv-row" key={i}>
            <label className="visually-hidden" htmlFor={`${base}-k${i}`}>{props.keyLabel} {i + 1}</label>
            <input id={`${base}-k${i}`} className="input mono" placeholder={props.keyLabel} value={row.key} onChange={(e) => update(i, { key: e.target.value })} autoComplete="off" spellCheck={false} />
            <label className="visually-hidden" htmlFor={`${base}-v${i}`}>Value of {row.key || `${props.keyLabel} ${i + 1}`}</label>
            <input id={`${base}-v${i}`} className="input mono" placeholder="value or ${secret:NAME}" value={row.value} onChange={(e) => update(i, { value: e.target.value })} autoComplete="off" spellCheck={false} />
            <label className="visually-hidden" htmlFor={`${base}-s${i}`}>Use a stored key for {row.key || `${props.keyLabel} ${i + 1}`}</label>
            <select id={`${base}-s${i}`} className="input" value={secret ?? ''} onChange={(e) => update(i, { value: e.target.value ? `\${secret:${e.target.value}}` : '' })}>
              <option value="">Stored key…</option>
              {props.secretNames.map((n) => (
                <option key={n} value={n}>{n}</option>
              ))}
              {secret !== undefined && secret !== '' && !props.secretNames.includes(secret) && <option value={secret}>{secret} (missing)</option>}
            </select>
            <button type="button" className="icon-button" aria-label={`Remove ${row.key || `${props.keyLabel} ${i + 1}`}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
              ×
            </button>
          </div>
        );
      })}
      <div className="kv-foot">
        <button type="button" className="button" onClick={() => onChange([...rows, { key: '', value: '' }])}>
          {props.addLabel}
        </button>
        <span className="muted small">
          Keep keys out of the config: pick a stored key, or <a href={href('keys')}>add one</a>.
        </span>
      </div>
      {props.error && <p className="field-error" id={errorId}>{props.error}</p>}
    </fieldset>
  );
}

export function toRows(map: Record<string, string> | undefined): KeyValueRow[] {
  return Object.entries(map ?? {}).map(([key, value]) => ({ key, value }));
}

export function fromRows(rows: KeyValueRow[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const r of rows) if (r.key.trim() !== '') out[r.key.trim()] = r.value;
  return Object.keys(out).length > 0 ? out : undefined;
}
