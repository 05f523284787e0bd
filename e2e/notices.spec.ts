// Notices belong to the moment and the place they describe (issue 28, item 1): a confirmation is
// gone after its time even while the person changes screens; a server's failure stays on the page
// where it appeared and does not follow the person; at 900 × 700 a notice takes its own room
// below the screen and never covers what the person reads. Also Settings' layout (item 13): the
// config file's path first, every card one width.
import type { Locator, Page } from '@playwright/test';
import { everythingEntry, expect, expectAccessible, screenshot, test } from './fixtures.js';
import { connectClient } from './helpers/mcp-traffic.js';
import { ServersPage } from './pages/servers-page.js';

test.use({ engineConfig: { mcpServers: { fx: everythingEntry() } } });

async function saveSettings(ui: Page): Promise<void> {
  await ui.getByTestId('nav-settings').click();
  await ui.getByRole('button', { name: 'Save settings' }).click();
}

async function box(locator: Locator): Promise<{ top: number; bottom: number; left: number; right: number }> {
  const b = (await locator.boundingBox())!;
  return { top: b.y, bottom: b.y + b.height, left: b.x, right: b.x + b.width };
}

test("a confirmation lives its time from when it was raised, whatever screens the person visits", async ({ ui }) => {
  // The page's clock stands still unless the test moves it: the notice's time is counted exactly.
  await ui.clock.install();
  await ui.clock.pauseAt(new Date(Date.now() + 1000));
  await saveSettings(ui);
  const notice = ui.getByTestId('notice').filter({ hasText: 'Settings saved' });
  await expect(notice).toBeVisible();
  for (const screen of ['sessions', 'servers', 'clients', 'settings']) {
    await ui.getByTestId(`nav-${screen}`).click();
    await expect(ui.locator('main h1')).toBeVisible();
    await ui.clock.runFor(1000);
  }
  // 4 s after it was raised (and four screens later) it is still there; at 5 s it is gone.
  await expect(notice).toBeVisible();
  await ui.clock.runFor(1100);
  await expect(notice).toHaveCount(0);
});

test("a server's failure is told where the person is, and does not follow them to other screens", async ({ ui, engine }) => {
  const servers = new ServersPage(ui);
  const mcp = await connectClient(`${engine.url}/mcp/fx`, await engine.token(), 'e2e-notices');
  try {
    await ui.getByTestId('nav-settings').click();
    await expect(ui.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await mcp.client.callTool({ name: 'crash', arguments: { code: 3 } }).catch(() => undefined);
    const notice = ui.getByTestId('notice-error');
    await expect(notice).toContainText('Server fx failed');
    await expectAccessible(ui, 'a server failure notice');
    await ui.getByTestId('nav-sessions').click();
    await expect(ui.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
    await expect(notice).toHaveCount(0);
    // What it said stays where it belongs: the server's row.
    await servers.open();
    await expect(servers.row('fx').getByTestId('server-state')).toHaveText('Error');
    await expect(notice).toHaveCount(0);
  } finally {
    await mcp.close();
  }
});

test.describe('at 900 × 700', () => {
  test.use({ viewport: { width: 900, height: 700 } });

  test('a notice takes its own room below the screen: it covers nothing the person reads', async ({ ui }) => {
    const servers = new ServersPage(ui);
    await servers.open();
    await servers.row('fx').getByRole('link', { name: 'fx', exact: true }).click();
    await servers.editCommand('fx', process.execPath);
    // The save is followed by a test; its result is what the person reads now.
    await expect(ui.getByTestId('test-error').or(ui.getByTestId('test-result'))).toBeVisible();
    const notice = ui.getByTestId('notice').filter({ hasText: 'Saved fx' });
    await expect(notice).toBeVisible();
    const main = await box(ui.locator('main'));
    const card = await box(notice);
    expect(card.top).toBeGreaterThanOrEqual(main.bottom - 1);
    await screenshot(ui, 'narrow-notice');
    await expectAccessible(ui, 'a confirmation at 900 × 700');
  });
});

test("Settings: the config file's path first, every card one width", async ({ ui }) => {
  await ui.getByTestId('nav-settings').click();
  const files = ui.getByTestId('settings-files');
  await expect(files.getByTestId('config-file')).toContainText('config.json');
  await expect(files.getByTestId('config-file')).toBeInViewport();
  const cards = ui.locator('.settings-screen > .panel');
  await expect(cards.first()).toHaveAttribute('data-testid', 'settings-files');
  const widths = await cards.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().width)));
  expect(widths.length).toBeGreaterThan(2);
  expect(new Set(widths).size).toBe(1);
});
