// Load: a live session view keeps up with ~1,000 messages a second (every exchange arrives, the
// page answers while traffic flows, a person who scrolled up is not moved), and a 100k-message
// session opens with its first rows at once and its last exchange at the end. Timings are printed
// as measurements, never asserted.
import type { Page } from '@playwright/test';
import { everythingEntry, expect, test } from './fixtures.js';
import { floodEchoes, openRawSession, pacedEchoes } from './helpers/raw-traffic.js';
import { SessionsPage } from './pages/sessions-page.js';

test.use({ engineConfig: { mcpServers: { fx: everythingEntry() } } });

/** Starts counting the page's long tasks (main thread busy > 50 ms). */
async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  });
}

async function longTasks(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks.slice());
}

/** All rows of the timeline, as its toolbar counts them ("N rows", or "M of N rows" when filtered). */
async function totalRows(page: Page): Promise<number> {
  const text = (await page.getByTestId('row-count').textContent()) ?? '';
  return Number(/(\d+) rows/.exec(text)?.[1] ?? -1);
}

/** The "N calls" of the session header. */
async function headerCalls(page: Page): Promise<number> {
  const text = (await page.locator('.session-meta').textContent()) ?? '';
  // The count as the page writes it: with the person's thousands separators (`2,561 calls`).
  return Number(/\b(\d{1,3}(?:[,.\u00a0\u202f]\d{3})+|\d+) calls?\b/.exec(text)?.[1]?.replace(/\D/g, '') ?? -1);
}

test('a live session keeps up with ~1,000 messages/s: all arrive, the page answers, no jump', async ({ ui, engine }) => {
  test.setTimeout(120_000);
  const sessions = new SessionsPage(ui);
  await sessions.open();
  const mcp = await openRawSession(`${engine.url}/mcp/fx`, await engine.token(), 'e2e-load');
  try {
    await expect(sessions.sessionLink('e2e-load')).toBeVisible();
    await sessions.sessionLink('e2e-load').click();
    await expect(sessions.timeline()).toBeVisible();

    // Some rows first, then the person scrolls to the top and picks one: from now on the view
    // must not move under them.
    const warmup = 60;
    for (let i = 0; i < warmup; i++) await mcp.echo(`warm-${i}`);
    await expect(sessions.rows('tools/call').first()).toBeVisible();
    await ui.getByTestId('method-filter').selectOption('tools/call');
    await expect(ui.getByTestId('row-count')).toContainText(`${warmup} of`);
    await ui.getByTestId('method-filter').selectOption('');
    // The header's count follows the rows (initialize + the warm-up calls).
    await expect.poll(() => headerCalls(ui)).toBe(1 + warmup);
    await sessions.timeline().evaluate((el) => {
      el.scrollTop = 0;
      el.dispatchEvent(new Event('scroll'));
    });
    const picked = sessions.rows('tools/call').nth(2);
    await picked.click();
    const pickedId = await picked.getAttribute('id');
    await expect(ui.locator(`[id="${pickedId}"]`)).toHaveAttribute('aria-selected', 'true');
    await expect(ui.getByTestId('json-request')).toContainText('warm-2');
    const scrollBefore = await sessions.timeline().evaluate((el) => el.scrollTop);

    // ~1,000 messages a second on the client leg: 500 echo calls/s (a request and its answer each), 5 s.
    await watchLongTasks(ui);
    const burst = 2500;
    const traffic = pacedEchoes(mcp, { total: burst, perSecond: 500, concurrency: 32, prefix: 'burst' });
    let trafficDone = false;
    void traffic.then(() => (trafficDone = true), () => (trafficDone = true));

    // While it flows: rows arrive, the selection and the scroll position stay, the UI answers.
    await expect.poll(() => totalRows(ui)).toBeGreaterThan(warmup + 200);
    expect(trafficDone, 'the checks below must run while traffic flows').toBe(false);
    expect(await sessions.timeline().evaluate((el) => el.scrollTop)).toBe(scrollBefore);
    await expect(ui.locator(`[id="${pickedId}"]`)).toHaveAttribute('aria-selected', 'true');
    await expect(ui.locator(`[id="${pickedId}"]`)).toBeInViewport();

    await ui.getByTestId('session-search').fill('warm-7');
    await expect(ui.getByTestId('session-search')).toHaveValue('warm-7');
    await ui.getByRole('button', { name: 'Search' }).click();
    await expect(ui.getByTestId('search-summary')).toContainText('match “warm-7”');
    await ui.getByTestId('search-clear').click();

    await ui.getByTestId('errors-only').check();
    await expect(ui.getByTestId('row-count')).toContainText(/^0 of/);
    await ui.getByTestId('errors-only').uncheck();
    await expect(ui.getByTestId('row-count')).not.toContainText(/^0 of/);
    const interactedDuringTraffic = !trafficDone;

    const sent = await traffic;
    const tasks = await longTasks(ui);

    // Every exchange arrives, in the timeline and in the header's count.
    await ui.getByTestId('method-filter').selectOption('tools/call');
    await expect(ui.getByTestId('row-count')).toContainText(`${warmup + sent} of`);
    await ui.getByTestId('method-filter').selectOption('');
    // initialize + every tools/call.
    await expect.poll(() => headerCalls(ui)).toBe(1 + warmup + sent);
    // Still where the person left it: the picked row selected and in view.
    await expect(ui.locator(`[id="${pickedId}"]`)).toHaveAttribute('aria-selected', 'true');
    await expect(ui.locator(`[id="${pickedId}"]`)).toBeInViewport();
    await expect(ui.getByTestId('json-request')).toContainText('warm-2');

    // And with the view at the end, it follows the tail.
    await sessions.timeline().focus();
    await ui.keyboard.press('End');
    const rowsBefore = await totalRows(ui);
    await mcp.echo('tail-after-burst');
    await expect.poll(() => totalRows(ui)).toBe(rowsBefore + 1);
    await expect(sessions.rows('tools/call').last()).toBeInViewport();
    await sessions.rows('tools/call').last().click();
    await expect(ui.getByTestId('json-request')).toContainText('tail-after-burst');

    const total = tasks.reduce((a, b) => a + b, 0);
    console.log(
      `[measure] live burst: ${sent} calls (${2 * sent} client-leg messages) at ~1,000 messages/s; UI interactions during traffic: ${interactedDuringTraffic}; ` +
        `long tasks: ${tasks.length}, total ${Math.round(total)} ms, longest ${Math.round(Math.max(0, ...tasks))} ms`,
    );
  } finally {
    await mcp.close();
  }
});

test('a 100k-message session opens with its first rows at once and scrolls to its last exchange', async ({ ui, engine }) => {
  test.setTimeout(300_000);
  const exchanges = 50_000;
  const mcp = await openRawSession(`${engine.url}/mcp/fx`, await engine.token(), 'e2e-big');
  const fill = Date.now();
  try {
    await floodEchoes(mcp, exchanges - 1, 16, 'bulk');
    await mcp.echo('the-very-last-one');
  } finally {
    await mcp.close();
  }
  console.log(`[measure] 100k session: ${exchanges} exchanges through the hub in ${((Date.now() - fill) / 1000).toFixed(1)} s`);

  const sessions = new SessionsPage(ui);
  await sessions.open();
  await expect(sessions.sessionLink('e2e-big')).toBeVisible();
  const opened = Date.now();
  await sessions.sessionLink('e2e-big').click();
  await expect(sessions.rows().first()).toBeVisible({ timeout: 60_000 });
  const firstRowsMs = Date.now() - opened;
  await expect(ui.getByTestId('row-count')).not.toContainText('loading', { timeout: 120_000 });
  const allRowsMs = Date.now() - opened;

  // Every exchange is there: initialize + 50,000 tools/call, in the header and the timeline.
  await expect.poll(() => headerCalls(ui)).toBe(exchanges + 1);
  await ui.getByTestId('method-filter').selectOption('tools/call');
  await expect(ui.getByTestId('row-count')).toContainText(`${exchanges} of`);
  await ui.getByTestId('method-filter').selectOption('');

  // The end of the timeline is the last exchange.
  await sessions.timeline().focus();
  await ui.keyboard.press('End');
  await sessions.rows('tools/call').last().click();
  await expect(ui.getByTestId('json-request')).toContainText('the-very-last-one');
  console.log(`[measure] 100k session: first rows after ${firstRowsMs} ms, all ${exchanges * 2}+ messages loaded after ${allRowsMs} ms`);
});
