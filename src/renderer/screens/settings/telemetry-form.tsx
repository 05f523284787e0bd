/**
 * The form of Settings → Telemetry: edits the `telemetry` block of config.json (the engine writes
 * it atomically and re-reads it). A field the hub's environment sets says so: the environment's
 * value is the one in effect. Header values may be stored keys (`${secret:NAME}`), picked from
 * Keys & logins; they are resolved only when the exporter starts.
 */
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { EffectiveValue, TelemetryView } from '../../../shared/api/telemetry-contract.js';
import { useAppState, useSecrets, useServices } from '../../app/services.js';
import { saveTelemetry } from '../../app/telemetry-commands.js';
import { CallError } from '../../bridge/bridge.js';
import { ErrorMessage } from '../../components/error-message.js';
import { KeyValueEditor } from '../servers/key-value-editor.js';
import { errorsFromMessage, isRatioSampler, modelFrom, PROTOCOLS, SAMPLERS, toPatch, validate, type TelemetryErrors, type TelemetryField, type TelemetryFormModel } from './telemetry-form-model.js';

export function TelemetryForm({ view }: { view: TelemetryView }) {
  const services = useServices();
  const secretNames = useSecrets((s) => s.list.secrets.map((x) => x.name).join('\n'));
  const names = useMemo(() => (secretNames ? secretNames.split('\n') : []), [secretNames]);
  // From the block as stored when the form opened; a save resets it to what was written.
  const [model, setModel] = useState<TelemetryFormModel>(() => modelFrom(view.config));
  const [errors, setErrors] = useState<TelemetryErrors>({});
  const [busy, setBusy] = useState(false);
  // Kept in the store: the note stays until the hub restarts, whichever screen was visited since.
  const restart = useAppState((s) => s.restartRequired.includes('telemetry'));
  const set = <K extends TelemetryField>(key: K, value: TelemetryFormModel[K]): void => setModel((m) => ({ ...m, [key]: value }));
  const effective = view.effective;

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const found = validate(model);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await saveTelemetry(services, toPatch(model, view.config));
      const saved = services.stores.app.getState().telemetry;
      if (saved) setModel(modelFrom(saved.config));
    } catch (err) {
      setErrors(err instanceof CallError ? errorsFromMessage(err.message, err.details) : { form: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };

  const field = (key: TelemetryField, label: string, input: ReactNode, hint?: ReactNode): ReactNode => (
    <div className="field">
      <label htmlFor={`telemetry-${key}`}>{label}</label>
      {input}
      {hint && <p className="hint" id={`telemetry-${key}-hint`}>{hint}</p>}
      {errors[key] && <p className="field-error" id={`telemetry-${key}-error`}>{errors[key]}</p>}
    </div>
  );
  const described = (key: TelemetryField, hasHint: boolean) => ({
    'aria-invalid': errors[key] ? true : undefined,
    'aria-describedby': [hasHint ? `telemetry-${key}-hint` : '', errors[key] ? `telemetry-${key}-error` : ''].filter(Boolean).join(' ') || undefined,
  });

  return (
    <form className="form telemetry-form" onSubmit={(e) => void submit(e)} noValidate aria-label="Telemetry settings in config.json" data-testid="telemetry-form">
      <h3>In config.json</h3>
      {errors.form && <ErrorMessage>{errors.form}</ErrorMessage>}
      {restart && (
        <p className="banner banner-warn" role="status" data-testid="telemetry-restart">
          Saved. Restart the hub to apply the exporter's new settings.
        </p>
      )}
      <label className="check">
        <input type="checkbox" checked={model.enabled} onChange={(e) => set('enabled', e.target.checked)} data-testid="telemetry-enabled" /> Export telemetry when an endpoint is set
      </label>
      {overridden(effective.enabled) && <p className="hint">{overridden(effective.enabled)}</p>}
      <div className="grid-2">
        {field(
          'endpoint',
          'OTLP endpoint',
          <input id="telemetry-endpoint" className="input mono" type="url" value={model.endpoint} onChange={(e) => set('endpoint', e.target.value)} placeholder="http://localhost:4318" autoComplete="off" spellCheck={false} {...described('endpoint', true)} />,
          overridden(effective.endpoint) ?? 'HTTP: port 4318; gRPC: 4317. Empty: telemetry stays off unless the environment sets one.',
        )}
        {field(
          'protocol',
          'Protocol',
          <select id="telemetry-protocol" className="input" value={model.protocol} onChange={(e) => set('protocol', e.target.value as TelemetryFormModel['protocol'])} {...described('protocol', overridden(effective.protocol) !== undefined)}>
            <option value="">Default (http/protobuf)</option>
            {PROTOCOLS.map((p) => (
              <option key={p} value={p}>{p}</option>
            ))}
          </select>,
          overridden(effective.protocol),
        )}
      </div>
      <KeyValueEditor legend="Headers sent with every export" keyLabel="Header" addLabel="Add header" rows={model.headers} onChange={(rows) => set('headers', rows)} secretNames={names} error={errors.headers} testId="telemetry-headers" />
      <p className="hint">
        A value can be a stored key, <code>{'${secret:NAME}'}</code>: config.json keeps the reference and the exporter resolves it when it starts; this page never shows it.
        {effective.headers.some((h) => h.source === 'environment') && ' OTEL_EXPORTER_OTLP_HEADERS in the hub\'s environment sets headers too.'}
      </p>
      <div className="grid-2">
        {field(
          'serviceName',
          'Service name',
          <input id="telemetry-serviceName" className="input" value={model.serviceName} onChange={(e) => set('serviceName', e.target.value)} placeholder="patchbay" autoComplete="off" spellCheck={false} {...described('serviceName', overridden(effective.serviceName) !== undefined)} />,
          overridden(effective.serviceName),
        )}
        {field(
          'sampler',
          'Sampler',
          <select id="telemetry-sampler" className="input" value={model.sampler} onChange={(e) => set('sampler', e.target.value as TelemetryFormModel['sampler'])} {...described('sampler', true)}>
            <option value="">Default (parentbased_always_on)</option>
            {SAMPLERS.map((s) => (
              <option key={s} value={s}>{s}</option>
            ))}
          </select>,
          overridden(effective.sampler) ?? <>Which requests are traced. <code>parentbased_…</code>: a request whose client sent a <code>traceparent</code> keeps the client's decision; <code>…traceidratio</code>: a ratio of traces.</>,
        )}
      </div>
      {(isRatioSampler(model.sampler) || model.samplerArg !== '') &&
        field(
          'samplerArg',
          'Sampler ratio',
          <input id="telemetry-samplerArg" className="input narrow" inputMode="decimal" value={model.samplerArg} onChange={(e) => set('samplerArg', e.target.value)} placeholder="1" {...described('samplerArg', true)} />,
          overridden(effective.samplerArg) ?? 'From 0 to 1: 0.1 keeps one trace in ten.',
        )}
      <label className="check">
        <input type="checkbox" checked={model.captureContent} onChange={(e) => set('captureContent', e.target.checked)} aria-describedby="telemetry-capture-hint" data-testid="telemetry-capture-content" /> Capture content: tool arguments and results on the spans
      </label>
      <p className="hint" id="telemetry-capture-hint">
        Off by default. When on, each span carries the call's arguments and result, redacted as in the inspector: the values of stored keys, the hub token and the secrets in servers' configs are masked, nothing else is. Spans leave this machine for your collector, and arguments and results can hold personal or confidential data.
      </p>
      {field(
        'traceViewerUrl',
        'Trace viewer URL',
        <input id="telemetry-traceViewerUrl" className="input mono" type="url" value={model.traceViewerUrl} onChange={(e) => set('traceViewerUrl', e.target.value)} placeholder="http://localhost:16686/trace/{traceId}" autoComplete="off" spellCheck={false} {...described('traceViewerUrl', true)} />,
        <>Each traced exchange in Sessions links to its trace here. Must contain <code>{'{traceId}'}</code>. Applies at once.</>,
      )}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy} data-testid="telemetry-save">Save telemetry settings</button>
        <span className="muted small">Written to {view.configFile}</span>
      </div>
    </form>
  );
}

/** Says when the hub's environment sets a field, and whether it wins over this form. */
function overridden(v: EffectiveValue): string | undefined {
  if (v.source === 'environment') return `${v.variable ?? 'A variable'} in the hub's environment sets this, and wins over config.json.`;
  if (v.overrides === 'environment') return `This wins over ${v.variable ?? 'a variable'} in the hub's environment.`;
  return undefined;
}
