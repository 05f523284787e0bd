// Settings and keys: rotating the token makes the hub refuse the old one at once; keys are
// write-only; every screen passes axe. (Clients: clients.spec.ts.)
import { everythingEntry, expect, expectAccessible, screenshot, test } from './fixtures.js';
import { KeysPage } from './pages/keys-page.js';
import { SettingsPage } from './pages/settings-page.js';

test.use({ engineConfig: { mcpServers: { fx: everythingEntry() } } });

test('rotating the token: the old one is refused, the new one works, the UI stays logged in', async ({ ui, engine }) => {
  const settings = new SettingsPage(ui);
  await settings.open();
  await screenshot(ui, 'settings');
  await expectAccessible(ui, 'settings');
  const old = await engine.token();
  const call = (token: string) => fetch(`${engine.url}/api/call/hub.status`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: '{}' });
  expect((await call(old)).status).toBe(200);

  await settings.rotateToken();
  // The browser follows a fresh one-time link and comes back to Settings, still logged in.
  await expect(ui).toHaveURL(`${engine.url}/ui/#/settings`);
  await expect(ui.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect.poll(async () => (await engine.token()) !== old).toBe(true);
  const fresh = await engine.token();

  expect((await call(old)).status).toBe(401);
  expect((await call(fresh)).status).toBe(200);
  const mcp = await fetch(`${engine.url}/mcp/fx`, { method: 'POST', headers: { Authorization: `Bearer ${old}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: '{}' });
  expect(mcp.status).toBe(401);
  // The UI still works with its new cookie.
  await ui.getByTestId('nav-servers').click();
  await expect(ui.getByTestId('server-row-fx')).toBeVisible();
});

test('keys are write-only: stored, replaced and deleted, never shown again', async ({ ui }) => {
  const keys = new KeysPage(ui);
  await keys.open();
  await expect(ui.getByTestId('keys-empty')).toBeVisible();
  const value = 'sk-e2e-secret-value-1234567890-WXYZ';
  await keys.add('E2E_API_KEY', value);
  const row = ui.getByTestId('key-row-E2E_API_KEY');
  await expect(row).toContainText('WXYZ');
  await expect(ui.locator('body')).not.toContainText(value);
  await screenshot(ui, 'keys');
  await expectAccessible(ui, 'keys');

  await row.getByRole('button', { name: 'Replace E2E_API_KEY' }).click();
  await row.getByLabel('New value for E2E_API_KEY').fill('sk-rotated-value-0987654321-ABCD');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText('ABCD');
  await row.getByRole('button', { name: 'Delete E2E_API_KEY' }).click();
  await row.getByRole('button', { name: 'Delete E2E_API_KEY' }).click();
  await expect(ui.getByTestId('keys-empty')).toBeVisible();
});
