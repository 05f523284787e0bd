// Sessions: a real MCP client drives traffic; the exchanges appear live with latencies; an
// exchange opens to its JSON; search finds a message; a session exports to a file.
import { readFile } from 'node:fs/promises';
import { everythingEntry, expect, expectAccessible, screenshot, test } from './fixtures.js';
import { connectClient } from './helpers/mcp-traffic.js';
import { SessionsPage } from './pages/sessions-page.js';

test.use({ engineConfig: { mcpServers: { fx: everythingEntry({ env: { FIXTURE_STDERR_BANNER: 'fixture says hello on stderr' } }) } } });

test('live exchanges with latencies, JSON of one exchange, search and export', async ({ ui, engine }) => {
  const sessions = new SessionsPage(ui);
  await sessions.open();
  await expect(ui.getByTestId('sessions-empty')).toBeVisible();
  await expectAccessible(ui, 'sessions (empty)');

  const mcp = await connectClient(`${engine.url}/mcp/fx`, await engine.token(), 'e2e-traffic');
  try {
    // The new session shows up in the live list without a reload.
    await expect(sessions.sessionLink('e2e-traffic')).toBeVisible();
    await sessions.sessionLink('e2e-traffic').click();
    await expect(sessions.timeline()).toBeVisible();

    // Traffic while the session is open arrives live.
    for (let i = 0; i < 5; i++) await mcp.client.callTool({ name: 'echo', arguments: { text: `needle-${i}` } });
    await expect(sessions.rows('tools/call')).toHaveCount(5);
    await expect(sessions.rows('tools/call').first()).toContainText(/\d+ ms|<1 ms/);
    await expect(sessions.rows('tools/call').first()).toContainText('ok');
    // The server's stderr is inline.
    await expect(ui.getByTestId('timeline-row').filter({ hasText: 'fixture says hello on stderr' })).toHaveCount(1);

    // Open one exchange and read its JSON.
    await sessions.rows('tools/call').nth(2).click();
    await expect(ui.getByTestId('detail-status')).toHaveText('ok');
    await expect(ui.getByTestId('json-request')).toContainText('needle-2');
    await expect(ui.getByTestId('json-response')).toContainText('needle-2');
    await expectAccessible(ui, 'session view');

    // Keyboard: the timeline is one tab stop; arrows move the selection.
    await sessions.timeline().focus();
    await ui.keyboard.press('End');
    await expect(ui.getByTestId('json-request')).toContainText('needle-4');

    // Filters.
    await ui.getByTestId('method-filter').selectOption('tools/call');
    await expect(ui.getByTestId('row-count')).toContainText('5 of');
    await ui.getByTestId('method-filter').selectOption('');

    // Search filters the timeline to the exchange that has it; it opens from there.
    await ui.getByTestId('session-search').fill('needle-3');
    await ui.getByRole('button', { name: 'Search' }).click();
    await expect(sessions.rows()).toHaveCount(1);
    await sessions.rows().first().click();
    await expect(ui.getByTestId('json-request')).toContainText('needle-3');
    await ui.getByTestId('search-clear').click();

    // Export: the file is the session, as JSONL.
    const download = ui.waitForEvent('download');
    await ui.getByTestId('export-jsonl').click();
    const file = await (await download).path();
    const lines = (await readFile(file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(10);
    expect(JSON.stringify(lines)).toContain('needle-3');

    await sessions.open();
    await expect(ui.getByTestId('session-row')).toHaveCount(1);
    await screenshot(ui, 'sessions');
    await expectAccessible(ui, 'sessions');
  } finally {
    await mcp.close();
  }
});
