// The Sessions inspector, polished (issue 28 items 4–11, 13 in part, and "the chart and counts
// follow the filters"), at the desktop window's minimum (900 × 700), with real SDK traffic:
// Copy as curl works as pasted (run in bash against the hub, in a session of its own, both eras);
// the protocol revision instead of "legacy"; underscores visible under link underlines; the chart
// follows the filters, labels its hours and draws a lone point; a sampling request's time is the
// client's; nothing jumps (row count, search summary, "Copied"); sizes and names not cut;
// progress notifications listed and filterable; solid latency bars; base64 elided in the JSON
// tree; the dark JSON block on the app's surface; Compare without ids and with a "more" marker.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page } from '@playwright/test';
import { demoEntry, expect, expectAccessible, REPO_ROOT, test } from './fixtures.js';
import { SessionsPage } from './pages/sessions-page.js';

const run = promisify(execFile);

/** A real SDK client that answers sampling and elicitation (what the demo's tools ask for). */
async function samplingClient(url: string, token: string, name: string): Promise<{ client: Client; close(): Promise<void> }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {} } });
  client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'Cables, briefly.' }, model: 'e2e-model' }));
  client.onerror = () => {};
  await client.connect(transport);
  return { client, close: async () => { await transport.terminateSession().catch(() => undefined); await client.close().catch(() => undefined); } };
}

/** Copies the selected exchange as curl and runs what was copied, as pasted, in bash. */
async function copyAndRunCurl(ui: Page): Promise<{ command: string; output: string }> {
  const button = ui.getByTestId('copy-curl');
  const before = await button.boundingBox();
  await button.click();
  await expect(button).toContainText('Copied');
  // "Copied" is shorter than "Copy as curl": the button keeps its width, its neighbours stay.
  expect((await button.boundingBox())?.width).toBe(before?.width);
  const command = await ui.evaluate(() => navigator.clipboard.readText());
  const { stdout } = await run('bash', ['-c', command], { timeout: 30_000 });
  return { command, output: stdout };
}

/** A search's summary and the row count stay on their lines: the timeline under them does not move. */
async function expectSearchKeepsItsPlace(ui: Page, query: string): Promise<void> {
  const timeline = ui.getByRole('tree', { name: 'Messages of this session' });
  const rowCount = ui.getByTestId('row-count');
  // The chart first (its code loads on first use): then nothing above the timeline is still settling.
  await expect(ui.getByTestId('latency-chart')).toBeVisible();
  const lineHeight = await rowCount.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  const top = (await timeline.boundingBox())!.y;
  await ui.getByTestId('session-search').fill(query);
  await ui.getByRole('button', { name: 'Search' }).click();
  await expect(ui.getByTestId('search-summary')).toContainText(/\d+ rows? match/);
  await expect(rowCount).toContainText(new RegExp(`^\\d+ of \\d+ rows · “${query}”: \\d+ matched`));
  expect((await rowCount.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);
  expect((await timeline.boundingBox())!.y).toBe(top);
  await ui.getByTestId('search-clear').click();
}

/** WCAG contrast ratio of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string): number => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => Number(v) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

/**
 * How many separate runs of ink a pixel column through the middle of `link`'s first underscore
 * crosses, from the glyph's top to below the underline: 2 when the underscore and the underline
 * are both drawn and apart; 1 when the underline is cut around the underscore (it then reads as a
 * space) or merges with it. The screenshot is decoded on a blank page (a canvas there).
 */
async function inkRunsThroughUnderscore(ui: Page, link: Locator): Promise<number> {
  const box = await link.evaluate((el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf('_') ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + 1);
      const r = range.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y, height: r.height };
    }
    return undefined;
  });
  expect(box, 'the link has an underscore').toBeDefined();
  const png = await ui.screenshot({ clip: { x: Math.floor(box!.x), y: Math.floor(box!.y), width: 1, height: Math.ceil(box!.height) + 10 } });
  const blank = await ui.context().newPage();
  try {
    return await blank.evaluate(async (b64) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const px = ctx.getImageData(0, 0, img.width, img.height).data;
      const bg = [px[0]!, px[1]!, px[2]!];
      let runs = 0;
      let inInk = false;
      for (let y = 0; y < img.height; y++) {
        const i = y * img.width * 4;
        const ink = Math.abs(px[i]! - bg[0]!) + Math.abs(px[i + 1]! - bg[1]!) + Math.abs(px[i + 2]! - bg[2]!) > 120;
        if (ink && !inInk) runs++;
        inInk = ink;
      }
      return runs;
    }, png.toString('base64'));
  } finally {
    await blank.close();
  }
}

test.describe('a 2025-11-25 client of the demo server', () => {
  test.use({ engineConfig: { mcpServers: { demo: demoEntry() } }, viewport: { width: 900, height: 700 } });

  test('curl as pasted, revisions, charts, sampling time, no jumps, sizes, progress, bars, base64, dark JSON, compare', async ({ ui, engine, context }) => {
    test.setTimeout(180_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const sessions = new SessionsPage(ui);
    const mcp = await samplingClient(`${engine.url}/mcp/demo`, await engine.token(), 'polish_client');
    try {
      await mcp.client.callTool({ name: 'echo', arguments: { text: 'curl-me' } });
      await mcp.client.callTool({ name: 'read_secret', arguments: { path: '/etc/shadow' } });
      await mcp.client.callTool({ name: 'long_task', arguments: { steps: 3, stepMs: 20 } }, { onprogress: () => {} });
      await mcp.client.callTool({ name: 'summarize', arguments: { text: 'A long text about cables.' } });
      await mcp.client.callTool({ name: 'chart', arguments: { values: [2, 5, 3] } });
      await mcp.client.callTool({ name: 'chart', arguments: { values: [3, 5, 2] } });

      await sessions.open();
      // The list says the revision the session speaks, never "legacy"; underscores in link names stay visible.
      const listRow = ui.getByTestId('session-row').filter({ hasText: 'polish_client' });
      await expect(listRow.getByTestId('session-era')).toHaveText(/^2025-\d\d-\d\d$/);
      expect(await inkRunsThroughUnderscore(ui, sessions.sessionLink('polish_client'))).toBe(2);
      const callsBefore = await listRow.locator('td.num').first().textContent();
      await sessions.sessionLink('polish_client').click();
      await expect(sessions.timeline()).toBeVisible();
      await expect(ui.getByTestId('session-view-era')).toHaveText(/^2025-\d\d-\d\d$/);
      await expect(ui.locator('main')).not.toContainText(/legacy/i);

      // Progress notifications: rows of their own under their call, and a method to filter by.
      await expect(ui.getByTestId('method-filter').locator('option[value="notifications/progress"]')).toHaveCount(1);
      await ui.getByTestId('method-filter').selectOption('notifications/progress');
      await expect(sessions.rows('notifications/progress')).toHaveCount(3);
      await expect(sessions.rows('notifications/progress').first()).toHaveAttribute('aria-level', '2');
      await expect(sessions.rows('notifications/progress').last()).toContainText('3 / 3');
      // The tree is virtualized: each row says its place among the rows shown beside it.
      await expect(sessions.rows('notifications/progress').first()).toHaveAttribute('aria-posinset', '1');
      await expect(sessions.rows('notifications/progress').last()).toHaveAttribute('aria-posinset', '3');
      await expect(sessions.rows('notifications/progress').last()).toHaveAttribute('aria-setsize', '3');

      // The chart follows the filters (a progress notification is no call: nothing to plot), then the tool filter.
      await expect(ui.getByTestId('latency-chart-empty')).toContainText('No answered call passes these filters');
      await ui.getByTestId('method-filter').selectOption('');
      const caption = ui.getByTestId('latency-chart-caption');
      await expect(caption).toContainText(/Latency of \d+ calls/);
      await ui.getByTestId('target-filter').selectOption('chart');
      await expect(caption).toContainText(/Latency of 2 of \d+ calls \(filtered\)/);
      await ui.getByTestId('target-filter').selectOption('');

      await expectSearchKeepsItsPlace(ui, 'curl-me');

      // At 900 × 700 with nothing chosen yet: the size column is there, and no tool name or size is cut.
      const echoRow = ui.getByTestId('timeline-row').filter({ has: ui.getByTestId('row-target').getByText('echo', { exact: true }) });
      for (const row of [echoRow, ui.getByTestId('timeline-row').filter({ has: ui.getByTestId('row-target').getByText('read_secret', { exact: true }) })]) {
        const size = row.locator('.col-size');
        await expect(size).toBeVisible();
        expect(await size.evaluate((el) => el.scrollWidth <= el.clientWidth && Array.from(el.children).every((c) => c.scrollWidth <= c.clientWidth + 1))).toBe(true);
        expect(await row.getByTestId('row-target').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      }
      // The latency bar is a solid mark (3:1 on the row or better), not a tint behind the digits.
      const bar = echoRow.locator('.latency-bar');
      const [barColour, rowColour] = await bar.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(document.querySelector('.timeline')!).backgroundColor]);
      expect(contrast(barColour!, rowColour!)).toBeGreaterThanOrEqual(3);

      // Copy as curl: run as pasted, it is answered, in a session of its own.
      await echoRow.click();
      const { command, output } = await copyAndRunCurl(ui);
      expect(command).not.toContain(await engine.token());
      expect(command).not.toMatch(/Mcp-Session-Id: [0-9a-f-]{8,}/i);
      expect(output).toContain('"result"');
      expect(output).toContain('curl-me');
      await sessions.open();
      await expect(ui.getByTestId('session-row').filter({ hasText: /^curl/ })).toHaveCount(1);
      await expect(listRow.locator('td.num').first()).toHaveText(callsBefore!);
      await sessions.sessionLink('polish_client').click();

      // A sampling request was timed by the client: the detail says so, and names no server time.
      await sessions.rows('sampling/createMessage').click();
      await expect(ui.getByTestId('detail-latency')).toContainText('the client answered in');
      await expect(ui.getByTestId('detail-latency')).not.toContainText('server');

      // A chart's image: its base64 shortened in the tree until "Show all"; the dark JSON block on the app's surface.
      const chartRows = ui.getByTestId('timeline-row').filter({ has: ui.getByTestId('row-target').getByText('chart', { exact: true }) });
      await chartRows.first().click();
      const response = ui.getByTestId('json-response');
      await expect(response).toContainText('of base64, elided');
      const shortLength = (await response.textContent())!.length;
      await ui.getByTestId('json-show-all').click();
      await expect(response).not.toContainText('of base64, elided');
      expect((await response.textContent())!.length).toBeGreaterThan(shortLength + 200);
      await ui.emulateMedia({ colorScheme: 'dark' });
      await expect.poll(() => response.locator('.json-container').first().evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
      await ui.emulateMedia({ colorScheme: 'light' });
      await expectAccessible(ui, 'session view, polished');

      // Compare the two charts: the ids are not a difference; what the diff leaves out is marked.
      await ui.getByTestId('pin-compare').click();
      await chartRows.last().click();
      await ui.getByTestId('compare-with').click();
      const compare = ui.getByTestId('compare-drawer');
      await expect(compare.getByTestId('compare-request')).toContainText('values');
      await expect(compare.getByTestId('compare-request')).not.toContainText('"id"');
      await expect(compare.getByTestId('compare-response').getByTestId('diff-more')).toHaveText(/… \d+ unchanged lines/);
      await compare.getByTestId('compare-whole').check();
      await expect(compare.getByTestId('compare-response')).toContainText('A bar chart of 3 values.');
      await expectAccessible(ui, 'compare drawer', '[data-testid="compare-drawer"]');
    } finally {
      await mcp.close();
    }
  });
});

const DUAL_ERA = path.join(REPO_ROOT, 'test', 'fixtures', 'dual-era-server.mjs');

test.describe('a 2026-07-28 client', () => {
  test.use({ engineConfig: { mcpServers: { modern: { command: process.execPath, args: [DUAL_ERA, '--stdio', '--era', 'modern'] } } } });

  test('Copy as curl of a sessionless call works as pasted; a search moves nothing', async ({ ui, engine, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const client = new Client({ name: 'e2e-modern-curl', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    client.onerror = () => {};
    await client.connect(new StreamableHTTPClientTransport(new URL(`${engine.url}/mcp/modern`), { requestInit: { headers: { Authorization: `Bearer ${await engine.token()}` } } }));
    try {
      await client.callTool({ name: 'echo', arguments: { text: 'modern-curl' } });
      const sessions = new SessionsPage(ui);
      await sessions.open();
      await sessions.sessionLink('e2e-modern-curl').click();
      await expect(ui.getByTestId('session-view-era')).toHaveText('2026-07-28');
      // At 1280 × 800 the filters share one line: a search's summary must not push the table down.
      await expectSearchKeepsItsPlace(ui, 'modern-curl');
      await sessions.rows('tools/call').click();
      const { command, output } = await copyAndRunCurl(ui);
      expect(command).not.toContain('initialize');
      expect(command).not.toContain(await engine.token());
      expect(output).toContain('modern-curl');
      expect(output).toContain('"result"');
    } finally {
      await client.close().catch(() => undefined);
    }
  });
});
