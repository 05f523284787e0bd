// Polish (issue 16, point 4), at the desktop window's minimum size (900 × 700): nothing spills
// sideways; Ctrl-K jumps to a server, a tool or a session; `/` searches and j/k move through the
// timeline; a filter that matches nothing says so and clears; a new screen starts at its top;
// a server that fails raises a notification.
import type { Page } from '@playwright/test';
import { demoEntry, everythingEntry, expect, expectAccessible, screenshot, test } from './fixtures.js';
import { connectClient } from './helpers/mcp-traffic.js';
import { SessionsPage } from './pages/sessions-page.js';

test.use({ engineConfig: { mcpServers: { demo: demoEntry(), fx: everythingEntry() } }, viewport: { width: 900, height: 700 } });

/** True when the main area has no horizontal scroll (everything fits the width). */
async function fitsWidth(page: Page): Promise<boolean> {
  return page.locator('main').evaluate((m) => m.scrollWidth <= m.clientWidth + 1);
}

test('at 900 × 700: palette, shortcuts, empty filters, scroll reset, a failing server announced', async ({ ui, engine }) => {
  test.setTimeout(150_000);
  const sessions = new SessionsPage(ui);
  // The first run lands on the demo's playground, which fits.
  await expect(ui.getByTestId('pg-list-tools').getByRole('link')).toHaveCount(7);
  expect(await fitsWidth(ui)).toBe(true);
  await screenshot(ui, 'narrow-playground');

  // Ctrl-K: jump to a tool by name.
  await ui.keyboard.press('Control+k');
  const palette = ui.getByTestId('palette');
  await expect(palette).toBeVisible();
  await ui.getByTestId('palette-input').fill('long_task');
  await expect(ui.getByTestId('palette-item').first()).toContainText('long_task');
  await expectAccessible(ui, 'palette', '[data-testid="palette"]');
  await ui.keyboard.press('Enter');
  await expect(palette).toHaveCount(0);
  await expect(ui).toHaveURL(/#\/servers\/demo\/playground\/tool%3Along_task$/);
  await expect(ui.getByRole('heading', { level: 2, name: 'Long task with progress' })).toBeVisible();

  // Traffic to look at, from a real client.
  const mcp = await connectClient(`${engine.url}/mcp/fx`, await engine.token(), 'e2e-polish');
  try {
    for (let i = 0; i < 4; i++) await mcp.client.callTool({ name: 'echo', arguments: { text: `row-${i}` } });
    // Ctrl-K again: jump to the session.
    await ui.keyboard.press('Control+k');
    await ui.getByTestId('palette-input').fill('e2e-polish');
    await ui.keyboard.press('Enter');
    await expect(ui.getByRole('heading', { level: 1, name: 'e2e-polish → fx' })).toBeVisible();
    await expect(sessions.rows('tools/call')).toHaveCount(4);
    expect(await fitsWidth(ui)).toBe(true);

    // `/` focuses the search; j and k move the selection.
    await ui.locator('main').click({ position: { x: 5, y: 5 } });
    await ui.keyboard.press('/');
    await expect(ui.getByTestId('session-search')).toBeFocused();
    await ui.getByTestId('session-search').blur();
    await ui.keyboard.press('j');
    await ui.keyboard.press('j');
    const second = await ui.locator('[role="treeitem"][aria-selected="true"]').getAttribute('id');
    await ui.keyboard.press('k');
    const first = await ui.locator('[role="treeitem"][aria-selected="true"]').getAttribute('id');
    expect(first).not.toBe(second);
    await ui.keyboard.press('j');
    await expect(ui.locator('[role="treeitem"][aria-selected="true"]')).toHaveAttribute('id', second!);
    await screenshot(ui, 'narrow-session');
    await expectAccessible(ui, 'session view at 900 × 700');

    // A filter that matches nothing: said so, one click clears it; the details do not show a hidden row.
    await ui.getByTestId('errors-only').check();
    await expect(ui.getByTestId('timeline-empty')).toContainText('No rows match these filters');
    await expect(ui.getByTestId('detail-empty')).toContainText('hidden by the filters');
    await ui.getByTestId('clear-filters').click();
    await expect(sessions.rows('tools/call')).toHaveCount(4);
    await expect(ui.locator('[role="treeitem"][aria-selected="true"]')).toHaveAttribute('id', second!);

    // A new screen starts at its top, whatever the last one's scroll.
    await ui.getByTestId('nav-clients').click();
    await expect(ui.getByTestId('clients-table')).toBeVisible();
    await ui.locator('main').evaluate((m) => m.scrollTo({ top: m.scrollHeight }));
    await expect.poll(() => ui.locator('main').evaluate((m) => m.scrollTop)).toBeGreaterThan(0);
    await ui.getByTestId('nav-settings').click();
    await expect(ui.getByRole('heading', { level: 1, name: 'Settings' })).toBeInViewport();
    expect(await ui.locator('main').evaluate((m) => m.scrollTop)).toBe(0);

    // A server that fails is announced where the person is, with a way to it (the notice stays
    // on that page: e2e/notices.spec.ts).
    await mcp.client.callTool({ name: 'crash', arguments: { code: 3 } }).catch(() => undefined);
    const notice = ui.getByTestId('notice-error');
    await expect(notice).toContainText('Server fx failed');
    await notice.getByRole('link', { name: 'Show' }).click();
    await expect(ui.getByRole('heading', { level: 1, name: 'fx' })).toBeVisible();
    await expect(notice).toHaveCount(0);
    await ui.getByTestId('nav-servers').click();
    expect(await fitsWidth(ui)).toBe(true);
    await screenshot(ui, 'narrow-servers');
  } finally {
    await mcp.close();
  }
});
