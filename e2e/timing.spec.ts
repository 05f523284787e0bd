// Issue 28, "Closer to DevTools": an exchange's Timing tab (phases with bars and figures in ms,
// both legs), the session's waterfall (every call on one axis) and the raw stream of a response
// (the SSE bytes as the hub wrote them, `id:` lines included), with a real SDK client and the demo
// server through a real hub; axe-clean in the light and the dark theme.
import { demoEntry, expect, expectAccessible, screenshot, test } from './fixtures.js';
import { connectClient } from './helpers/mcp-traffic.js';
import { SessionsPage } from './pages/sessions-page.js';

test.use({ engineConfig: { mcpServers: { demo: demoEntry() } } });

test('timing of a call, the waterfall of a session, and the raw SSE stream of a response', async ({ ui, engine }) => {
  test.setTimeout(120_000);
  const sessions = new SessionsPage(ui);
  const mcp = await connectClient(`${engine.url}/mcp/demo`, await engine.token(), 'e2e-timing');
  try {
    await mcp.client.callTool({ name: 'echo', arguments: { text: 'timed' } });
    await mcp.client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    await sessions.open();
    await sessions.sessionLink('e2e-timing').click();
    await expect(sessions.timeline()).toBeVisible();

    // The Timing tab of a real call: the hub's queue, the server's time, the delivery, in ms.
    const echo = ui.getByTestId('timeline-row').filter({ has: ui.getByTestId('row-target').getByText('echo', { exact: true }) });
    await echo.click();
    await expect(ui.getByTestId('tab-timing')).toHaveAttribute('aria-selected', 'true');
    const timing = ui.getByTestId('timing-view');
    for (const phase of ['queue', 'wait', 'download', 'route', 'deliver']) await expect(timing.locator(`[data-phase="${phase}"]`)).toContainText(/\d ms$/);
    await expect(timing.locator('[data-phase="wait"]')).toContainText('Waiting for the server (to first byte)');
    await expect(ui.getByTestId('timing-leg')).toHaveText([/^Client ⇄ hub.*ms$/, /^Hub ⇄ server.*ms$/]);
    await expect(ui.getByTestId('timing-total')).toHaveText(/\d ms$/);
    // Every figure shows whole inside the detail pane (the default pane is narrow).
    const cut = await ui.getByTestId('detail').evaluate((pane) => {
      const edge = pane.getBoundingClientRect().right;
      return Array.from(pane.querySelectorAll('.timing-view .num')).filter((c) => c.getBoundingClientRect().right > edge + 0.5).map((c) => c.textContent);
    });
    expect(cut).toEqual([]);
    await expectAccessible(ui, 'the timing tab', '[data-testid="detail"]');

    // The waterfall lists the session's exchanges (initialize, the two calls, …) on one axis.
    await ui.getByTestId('toggle-waterfall').click();
    const waterfall = ui.getByTestId('waterfall');
    await expect(waterfall.getByTestId('waterfall-row').filter({ hasText: 'tools/call echo' })).toHaveCount(1);
    await expect(waterfall.getByTestId('waterfall-row').filter({ hasText: 'tools/call add' })).toHaveCount(1);
    await expect(waterfall.getByTestId('waterfall-row').filter({ hasText: 'initialize' })).toHaveCount(1);
    // A row picks its exchange in the timeline and the detail.
    await waterfall.getByTestId('waterfall-row').filter({ hasText: 'tools/call add' }).getByRole('button').click();
    await expect(ui.getByTestId('detail').getByRole('heading', { level: 2 })).toContainText('add');
    await expectAccessible(ui, 'the waterfall', '[data-testid="waterfall"]');
    await screenshot(ui, 'session-waterfall');

    // The raw stream: off at first; recorded once turned on, for responses from then on.
    await ui.getByTestId('tab-raw').click();
    await expect(ui.getByTestId('raw-recording')).toContainText('Not recording');
    await ui.getByTestId('raw-record').click();
    await expect(ui.getByTestId('raw-recording')).toContainText('Recording');
    // A call with progress goes as an SSE stream: its events carry ids.
    await mcp.client.callTool({ name: 'long_task', arguments: { steps: 2, stepMs: 50 } }, { onprogress: () => {} });
    const longTask = ui.getByTestId('timeline-row').filter({ has: ui.getByTestId('row-target').getByText('long_task', { exact: true }) });
    await expect(longTask).toHaveAttribute('data-status', 'ok');
    await longTask.click();
    await ui.getByTestId('tab-raw').click();
    const chunks = ui.getByTestId('raw-chunks');
    await expect(chunks.locator('[data-kind="head"]')).toContainText(/content-type: text\/event-stream/i);
    // The priming event (an id, empty data) and every message with its id, as the client got them.
    await expect(chunks.locator('.raw-text').filter({ hasText: /^id: \S+-0\ndata: \n\n$/ })).toHaveCount(1);
    expect(await chunks.locator('.raw-text').filter({ hasText: /^id: \S+-\d+\nevent: message\ndata: \{/ }).count()).toBeGreaterThanOrEqual(3);
    await expect(chunks).toContainText('"method":"notifications/progress"');
    await expect(chunks.locator('[data-kind="end"]')).toHaveCount(1);
    // The same call's Timing tab lists its progress notifications.
    await ui.getByTestId('tab-timing').click();
    await expect(ui.getByTestId('timing-ticks')).toContainText('progress');
    await ui.getByTestId('tab-raw').click();
    await expectAccessible(ui, 'the raw stream tab', '[data-testid="detail"]');
    await screenshot(ui, 'exchange-raw-stream');
  } finally {
    await mcp.close();
  }
});
