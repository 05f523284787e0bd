// Clients (issue 16, point 3): the export opens in a drawer that stays in view, with a checkbox
// per server (a server in error is left out by default), a coloured side-by-side diff, and the
// outcome — the backup kept, Roll back — where the person is looking. Only checked servers are
// written.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { everythingEntry, expect, expectAccessible, screenshot, test } from './fixtures.js';

test.use({ engineConfig: { mcpServers: { fx: everythingEntry(), other: everythingEntry(), broken: { command: '/nonexistent/patchbay-e2e-broken' } } } });

test('export in a drawer: choose servers, read the diff, write only those, roll back', async ({ ui, engine }) => {
  test.setTimeout(120_000);
  // Make `broken` fail, so its state is Error (a test of it, as a person would).
  await ui.getByTestId('test-broken').click();
  await expect(ui.getByTestId('test-error')).toBeVisible();
  await ui.getByTestId('nav-clients').click();
  await expect(ui.getByRole('heading', { level: 1, name: 'Clients' })).toBeVisible();
  // No client is installed in this test's HOME: one line says so, above the table, not a box beside it.
  await expect(ui.getByTestId('clients-empty')).toContainText('No MCP client found');
  await ui.getByRole('button', { name: 'Export to Cursor' }).click();

  const drawer = ui.getByTestId('export-drawer');
  await expect(drawer).toBeInViewport();
  await expect(drawer.getByTestId('export-server-fx')).toBeChecked();
  await expect(drawer.getByTestId('export-server-other')).toBeChecked();
  await expect(drawer.getByTestId('export-server-broken')).not.toBeChecked();
  await expect(drawer.getByTestId('export-servers')).toContainText('in error');
  // Uncheck `other`: the diff follows, side by side, in view.
  await drawer.getByTestId('export-server-other').uncheck();
  const diff = drawer.getByTestId('export-diff');
  await expect(diff).toContainText('/mcp/fx');
  await expect(diff).not.toContainText('/mcp/other');
  await expect(diff.locator('.diff-code-insert').first()).toBeVisible();
  await expect(diff).toBeInViewport();
  await screenshot(ui, 'clients');
  await expectAccessible(ui, 'clients export drawer', '[data-testid="export-drawer"]');

  await drawer.getByTestId('export-write').click();
  const outcome = drawer.getByTestId('export-outcome');
  await expect(outcome).toContainText('Written.');
  await expect(outcome).toContainText('client-backups/cursor');
  await expect(outcome).toBeInViewport();
  const file = path.join(engine.dataDir, '.cursor', 'mcp.json');
  const written = JSON.parse(await readFile(file, 'utf8')) as { mcpServers: Record<string, { url?: string }> };
  expect(Object.keys(written.mcpServers)).toEqual(['fx']);

  await outcome.getByTestId('export-rollback').click();
  await expect.poll(async () => (await readFile(file, 'utf8').catch(() => '')).includes('/mcp/fx')).toBe(false);
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toHaveCount(0);
  await expectAccessible(ui, 'clients');
});
