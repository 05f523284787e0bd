/** Settings: port, allowed origins, inspector retention, the hub token, client tokens, telemetry, start at login (desktop). */
import { useEffect, useState, type FormEvent } from 'react';
import type { Settings } from '../../../shared/api/settings-contract.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { CopyButton } from '../../components/copy-button.js';
import { ErrorMessage } from '../../components/error-message.js';
import { formatDateTime } from '../../components/format.js';
import { useAppState, useServices } from '../../app/services.js';
import { ClientTokensPanel } from './client-tokens-panel.js';
import { TelemetryPanel } from './telemetry-panel.js';

export function SettingsScreen() {
  const settings = useAppState((s) => s.settings);
  const error = useAppState((s) => s.settingsError);
  // Telemetry says it in its own panel, where the change was made.
  const restartRequired = useAppState((s) => s.restartRequired).filter((key) => key !== 'telemetry');
  return (
    <section className="screen settings-screen" aria-labelledby="settings-title">
      <header className="screen-header">
        <h1 id="settings-title">Settings</h1>
      </header>
      {error && <ErrorMessage>Could not load the settings: {error}</ErrorMessage>}
      {restartRequired.length > 0 && (
        <p className="banner banner-warn" role="status" data-testid="restart-required">
          Saved. Restart the hub to apply: {restartRequired.map(label).join(', ')}.
        </p>
      )}
      {settings && (
        <>
          {/* First: where all of this is stored (people open config.json by hand). */}
          <section className="panel" aria-labelledby="files-title" data-testid="settings-files">
            <h2 id="files-title">Files</h2>
            <dl className="facts">
              <dt>Config file</dt>
              <dd><code data-testid="config-file">{settings.configFile}</code> <CopyButton label="Copy path" text={() => settings.configFile} /></dd>
              <dt>Token file</dt>
              <dd><code>{settings.tokenFile}</code></dd>
            </dl>
          </section>
          <HubForm settings={settings} />
          <TokenPanel settings={settings} />
          {settings.auth && <ClientTokensPanel />}
          <TelemetryPanel />
          {settings.startAtLogin !== undefined && <StartAtLogin enabled={settings.startAtLogin} />}
        </>
      )}
    </section>
  );
}

function label(key: string): string {
  return ({ port: 'port', allowedOrigins: 'allowed origins', retention: 'retention' } as Record<string, string>)[key] ?? key;
}

function HubForm({ settings }: { settings: Settings }) {
  const services = useServices();
  const [port, setPort] = useState(settings.port?.toString() ?? '');
  const [origins, setOrigins] = useState(settings.allowedOrigins.join('\n'));
  const [days, setDays] = useState(settings.retention.historyMaxAgeDays?.toString() ?? '');
  const [perSession, setPerSession] = useState(settings.retention.maxEventsPerSession?.toString() ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const found: Record<string, string> = {};
    const portValue = port.trim() === '' ? null : Number(port);
    if (portValue !== null && (!Number.isInteger(portValue) || portValue < 0 || portValue > 65535)) found.port = 'A port is a whole number from 0 to 65535 (0 picks a free one).';
    const originList = origins.split('\n').map((o) => o.trim()).filter(Boolean);
    const bad = originList.find((o) => !/^https?:\/\/[^/\s?#]+$/.test(o));
    if (bad) found.origins = `"${bad}" is not an origin: use scheme://host[:port] with nothing after it, e.g. http://localhost:5173.`;
    const daysValue = days.trim() === '' ? null : Number(days);
    if (daysValue !== null && !(daysValue > 0)) found.days = 'Enter a number of days above 0, or leave empty for the default.';
    const perSessionValue = perSession.trim() === '' ? null : Number(perSession);
    if (perSessionValue !== null && !(Number.isInteger(perSessionValue) && perSessionValue >= 100)) found.perSession = 'Enter a whole number of at least 100, or leave empty for the default.';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const r = await services.bridge.call('settings.update', {
      port: portValue,
      allowedOrigins: originList,
      retention: { historyMaxAgeDays: daysValue, maxEventsPerSession: perSessionValue },
    });
    setBusy(false);
    if (!r.ok) return setErrors({ form: r.message });
    services.stores.app.getState().settingsSaved(r.value.settings, r.value.restartRequired);
    services.stores.notices.getState().noticePosted('Settings saved');
  };

  return (
    <form className="panel form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="hub-settings-title" data-testid="settings-form">
      <h2 id="hub-settings-title">Hub</h2>
      {errors.form && <ErrorMessage>{errors.form}</ErrorMessage>}
      <div className="field">
        <label htmlFor="port">Port</label>
        <input id="port" className="input narrow" inputMode="numeric" value={port} placeholder={String(settings.defaultPort)} onChange={(e) => setPort(e.target.value)} aria-invalid={errors.port ? true : undefined} aria-describedby="port-hint" />
        <p className="hint" id="port-hint">Now listening on {settings.activePort}. Empty means the default, {settings.defaultPort}.</p>
        {errors.port && <p className="field-error">{errors.port}</p>}
      </div>
      <div className="field">
        <label htmlFor="origins">Allowed browser origins</label>
        <textarea id="origins" className="input mono" rows={3} value={origins} onChange={(e) => setOrigins(e.target.value)} placeholder="http://localhost:5173" aria-invalid={errors.origins ? true : undefined} aria-describedby="origins-hint" spellCheck={false} />
        <p className="hint" id="origins-hint">One per line. Web apps on these origins may call the hub (with the token). This UI's own origin is always allowed.</p>
        {errors.origins && <p className="field-error">{errors.origins}</p>}
      </div>
      <fieldset className="fieldset">
        <legend>Inspector retention</legend>
        <div className="grid-2">
          <div className="field">
            <label htmlFor="days">Keep history for (days)</label>
            <input id="days" className="input narrow" inputMode="decimal" value={days} onChange={(e) => setDays(e.target.value)} placeholder="default" aria-invalid={errors.days ? true : undefined} />
            {errors.days && <p className="field-error">{errors.days}</p>}
          </div>
          <div className="field">
            <label htmlFor="per-session">Messages kept in memory per session</label>
            <input id="per-session" className="input narrow" inputMode="numeric" value={perSession} onChange={(e) => setPerSession(e.target.value)} placeholder="default" aria-invalid={errors.perSession ? true : undefined} />
            {errors.perSession && <p className="field-error">{errors.perSession}</p>}
          </div>
        </div>
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>Save settings</button>
      </div>
    </form>
  );
}

function TokenPanel({ settings }: { settings: Settings }) {
  const services = useServices();
  const rotatedAt = useAppState((s) => s.tokenRotatedAt);
  const [error, setError] = useState<string>();
  const rotate = async (): Promise<void> => {
    const r = await services.bridge.call('settings.rotateToken', {});
    if (!r.ok) return setError(r.message);
    setError(undefined);
    services.stores.app.getState().tokenRotated(r.value.rotatedAt);
    // In a browser the old login ended with the old token: take the fresh one-time link at once.
    if (services.bridge.kind === 'http' && r.value.loginPath) window.location.assign(`${r.value.loginPath}#/settings`);
  };
  return (
    <section className="panel" aria-labelledby="token-title" data-testid="token-panel">
      <h2 id="token-title">Hub token</h2>
      {!settings.auth ? (
        <p className="banner banner-warn">Authentication is off (<code>--no-auth</code>): any local program can use the hub. There is no token to rotate.</p>
      ) : (
        <>
          <p className="muted">
            This UI and the <code>patchbay</code> command line use it (as <code>Authorization: Bearer …</code>); exported clients hold client tokens of their own (below). It is stored in <code>{settings.tokenFile}</code> and never shown here. Rotate it if it may have leaked: the old token is refused at once; client tokens keep working.
          </p>
          {rotatedAt && <p role="status" data-testid="token-rotated">Rotated {formatDateTime(rotatedAt)}.</p>}
          <ConfirmButton label="Rotate token" confirmLabel="Rotate now" onConfirm={rotate} testId="rotate-token" />
          {error && <ErrorMessage>{error}</ErrorMessage>}
        </>
      )}
    </section>
  );
}

function StartAtLogin({ enabled }: { enabled: boolean }) {
  const services = useServices();
  const [on, setOn] = useState(enabled);
  const [error, setError] = useState<string>();
  useEffect(() => setOn(enabled), [enabled]);
  const change = async (next: boolean): Promise<void> => {
    setOn(next);
    const r = await services.bridge.call('settings.update', { startAtLogin: next });
    if (!r.ok) {
      setOn(!next);
      return setError(r.message);
    }
    services.stores.app.getState().settingsSaved(r.value.settings, []);
  };
  return (
    <section className="panel" aria-labelledby="login-title">
      <h2 id="login-title">Desktop</h2>
      <label className="check">
        <input type="checkbox" checked={on} onChange={(e) => void change(e.target.checked)} /> Start Patchbay when I log in
      </label>
      {error && <ErrorMessage>{error}</ErrorMessage>}
    </section>
  );
}
