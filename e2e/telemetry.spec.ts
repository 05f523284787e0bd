// Telemetry (issue 23), the user's side: Settings → Telemetry says whether telemetry is on and
// where each value in effect comes from (the hub's environment or config.json), and edits the
// `telemetry` block of config.json — a stored key picked for a header stays a reference; a traced
// exchange shows its trace id in the inspector's detail, with a link to the configured viewer.
import { readFile } from 'node:fs/promises';
import { everythingEntry, expect, expectAccessible, screenshot, test } from './fixtures.js';
import { connectClient } from './helpers/mcp-traffic.js';
import { SessionsPage } from './pages/sessions-page.js';
import { SettingsPage } from './pages/settings-page.js';
import { TelemetryPanel } from './pages/telemetry-panel.js';

const SECRET_VALUE = 'otlp-e2e-token-0123456789-WXYZ';
const VIEWER = 'http://127.0.0.1:16686/trace/{traceId}';
// Nothing listens on the discard port of loopback: the exporter's sends fail at once, harmlessly.
const DEAD_COLLECTOR = 'http://127.0.0.1:9';

async function storeSecret(url: string, token: string, name: string, value: string): Promise<void> {
  const res = await fetch(`${url}/api/call/secrets.set`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify({ name, value }) });
  expect(res.status).toBe(200);
}

test.describe('the Settings panel', () => {
  test.use({
    engineConfig: { mcpServers: { fx: everythingEntry() }, telemetry: { resourceAttributes: { team: 'e2e' } } },
    engineEnv: { OTEL_SERVICE_NAME: 'patchbay-from-env' },
  });

  test('says why telemetry is off, edits and saves the telemetry block, and keeps a stored key a reference', async ({ ui, engine }) => {
    await storeSecret(engine.url, await engine.token(), 'OTLP_TOKEN', SECRET_VALUE);
    const settings = new SettingsPage(ui);
    await settings.open();
    const panel = new TelemetryPanel(ui);
    await expect(panel.status()).toHaveAttribute('data-status', 'off');
    await expect(panel.status()).toContainText('Off: no OTLP endpoint is set');
    // The hub's environment sets the service name: the table says so.
    await expect(panel.effective('serviceName')).toHaveAttribute('data-source', 'environment');
    await expect(panel.effective('serviceName')).toContainText('patchbay-from-env');
    await expect(panel.effective('serviceName')).toContainText('OTEL_SERVICE_NAME (environment)');
    await expect(panel.root.getByTestId('telemetry-applies')).toHaveText('Changes to the exporter take effect after a restart of the hub; the trace viewer URL applies at once.');

    // A bad URL is stopped where it was typed; nothing is written.
    const before = await readFile(engine.configFile, 'utf8');
    await panel.field('OTLP endpoint').fill('localhost:4318');
    await panel.save();
    await expect(panel.form.locator('#telemetry-endpoint-error')).toContainText('Enter an http(s) URL');
    await expect(panel.field('OTLP endpoint')).toHaveAttribute('aria-invalid', 'true');
    expect(await readFile(engine.configFile, 'utf8')).toBe(before);

    await panel.field('OTLP endpoint').fill(DEAD_COLLECTOR);
    await panel.field('Protocol').selectOption('http/json');
    await panel.addSecretHeader('authorization', 'OTLP_TOKEN');
    await panel.field('Service name').fill('patchbay-e2e');
    await panel.field('Sampler').selectOption('parentbased_traceidratio');
    await panel.field('Sampler ratio').fill('0.5');
    await panel.form.getByTestId('telemetry-capture-content').check();
    await panel.field('Trace viewer URL').fill(VIEWER);
    await panel.save();

    await expect(panel.form.getByTestId('telemetry-restart')).toContainText('Restart the hub');
    // On by these settings now; whether an exporter runs is the hub's to say, not this form's.
    await expect(panel.status()).toHaveAttribute('data-status', /^(configured|running|stopped)$/);
    await expect(panel.status()).toContainText(`On: exporting to ${DEAD_COLLECTOR}`);
    await expect(panel.effective('headers')).toContainText('authorization ← stored key OTLP_TOKEN');
    // The environment still wins for the service name (the form's value is stored, not in effect).
    await expect(panel.effective('serviceName')).toContainText('over config.json');

    const written = JSON.parse(await readFile(engine.configFile, 'utf8')) as { telemetry?: unknown };
    expect(written.telemetry).toEqual({
      resourceAttributes: { team: 'e2e' },
      endpoint: DEAD_COLLECTOR,
      protocol: 'http/json',
      headers: { authorization: '${secret:OTLP_TOKEN}' },
      serviceName: 'patchbay-e2e',
      sampler: 'parentbased_traceidratio',
      samplerArg: 0.5,
      captureContent: true,
      traceViewerUrl: VIEWER,
    });
    expect(await readFile(engine.configFile, 'utf8')).not.toContain(SECRET_VALUE);
    await expect(ui.locator('body')).not.toContainText(SECRET_VALUE);
    // The panel's top in view: its status and the settings in effect, with their sources.
    await panel.root.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(ui, 'settings-telemetry');
    await expectAccessible(ui, 'settings: telemetry', '[data-testid="telemetry-panel"]');

    // A new visit shows what was stored.
    await ui.reload();
    await settings.open();
    await expect(panel.field('OTLP endpoint')).toHaveValue(DEAD_COLLECTOR);
    await expect(panel.field('Trace viewer URL')).toHaveValue(VIEWER);
    await expect(panel.form.getByLabel('Value of authorization')).toHaveValue('${secret:OTLP_TOKEN}');
  });
});

test.describe('a traced exchange in the inspector', () => {
  test.use({ engineConfig: { mcpServers: { fx: everythingEntry() }, telemetry: { endpoint: DEAD_COLLECTOR, traceViewerUrl: VIEWER } } });

  test('shows its trace id (copyable) and a link to the trace viewer', async ({ ui, engine, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const mcp = await connectClient(`${engine.url}/mcp/fx`, await engine.token(), 'e2e-traced');
    try {
      await mcp.client.callTool({ name: 'echo', arguments: { text: 'traced' } });
      const sessions = new SessionsPage(ui);
      await sessions.open();
      await sessions.sessionLink('e2e-traced').click();
      await sessions.rows('tools/call').first().click();
      const traceId = sessions.detail().getByTestId('detail-trace-id');
      await expect(traceId).toHaveText(/^[0-9a-f]{32}$/);
      const id = (await traceId.textContent())!;
      const link = sessions.detail().getByTestId('detail-trace-link');
      await expect(link).toHaveAttribute('href', VIEWER.replace('{traceId}', id));
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      await sessions.detail().getByTestId('copy-trace-id').click();
      await expect(sessions.detail().getByTestId('copy-trace-id')).toContainText('Copied');
      expect(await ui.evaluate(() => navigator.clipboard.readText())).toBe(id);
      await expect(sessions.detail().getByTestId('detail-span-id')).toHaveText(/^span [0-9a-f]{16}$/);
    } finally {
      await mcp.close();
    }
  });
});
