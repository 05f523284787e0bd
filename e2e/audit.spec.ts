// The Audit screen (issue 25, docs/audit.md) against a real engine: what it says before anything
// happened (what is recorded, where the files are); calls made through the hub by a real MCP
// client and by the UI's playground show as lines (who, where, what, outcome, kind); the server
// filter; the client filter read once typing pauses; Verify chain says intact, then names the line edited in the file on disk. Axe-clean in
// both themes; nothing cut at 900 × 700.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { everythingEntry, expect, expectAccessible, screenshot, test, type Engine } from './fixtures.js';
import { connectClient } from './helpers/mcp-traffic.js';

test.use({ engineConfig: { mcpServers: { fx: everythingEntry(), other: everythingEntry() } } });

/** A playground call made through the API, as the UI's playground makes it (the trail says `ui`). */
async function playgroundCall(engine: Engine, server: string, tool: string, args: Record<string, unknown>): Promise<void> {
  const api = async (name: string, input: unknown): Promise<{ session: string }> => {
    const res = await fetch(`${engine.url}/api/call/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await engine.token()}` }, body: JSON.stringify(input) });
    const body = (await res.json()) as { ok: boolean; value: { session: string } };
    expect(body.ok, `${name}: ${JSON.stringify(body)}`).toBe(true);
    return body.value;
  };
  const { session } = await api('playground.open', { server });
  await api('playground.request', { session, method: 'tools/call', params: { name: tool, arguments: args } });
}

/** Refreshes until a row with this text is listed (lines reach the files from the capture pipeline, in batches). */
async function expectRow(page: Page, text: RegExp): Promise<void> {
  await expect(async () => {
    await page.getByTestId('audit-refresh').click();
    await expect(page.getByTestId('audit-row').filter({ hasText: text }).first()).toBeVisible({ timeout: 1000 });
  }).toPass();
}

async function fitsWidth(page: Page): Promise<boolean> {
  return page.locator('main').evaluate((m) => m.scrollWidth <= m.clientWidth + 1);
}

test('lists what clients did, filters by server, verifies the chain and names an edited line', async ({ ui, engine }) => {
  test.setTimeout(120_000);
  await ui.getByTestId('nav-audit').click();
  await expect(ui.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible();
  // Before any call: what is recorded, and where the files are.
  const empty = ui.getByTestId('audit-empty');
  await expect(empty).toContainText('Arguments and results never are');
  await expect(ui.getByTestId('audit-dir')).toHaveText(path.join(engine.dataDir, 'audit'));
  await expectAccessible(ui, 'audit, empty');

  const mcp = await connectClient(`${engine.url}/mcp/fx`, await engine.token(), 'audit-e2e');
  try {
    await mcp.client.callTool({ name: 'echo', arguments: { text: 'never-in-the-trail' } });
    await mcp.client.callTool({ name: 'no_such_tool', arguments: {} }).catch(() => undefined);
  } finally {
    await mcp.close();
  }
  const elsewhere = await connectClient(`${engine.url}/mcp/other`, await engine.token(), 'audit-e2e');
  try {
    await elsewhere.client.callTool({ name: 'echo', arguments: { text: 'on other' } });
  } finally {
    await elsewhere.close();
  }
  await playgroundCall(engine, 'fx', 'echo', { text: 'from the playground' });

  const rows = ui.getByTestId('audit-row');
  await expectRow(ui, /ui.*fx.*tools\/call echo/);
  const call = rows.filter({ hasText: 'hub-token:audit-e2e' }).filter({ hasText: 'tools/call echo' }).filter({ has: ui.getByTestId('audit-server').getByText('fx', { exact: true }) });
  await expect(call).toHaveCount(1);
  await expect(call.getByTestId('audit-outcome')).toHaveText('ok');
  await expect(call.getByTestId('audit-kind')).toHaveText('call');
  const failed = rows.filter({ hasText: 'tools/call no_such_tool' });
  await expect(failed.getByTestId('audit-outcome')).toHaveText('error:jsonrpc');
  await expect(rows.filter({ hasText: 'tools/call echo' }).first().getByTestId('audit-client')).toHaveText('ui');
  await expect(ui.locator('main')).not.toContainText('never-in-the-trail');

  // Filter by server: only other's lines.
  await ui.getByTestId('audit-server-filter').selectOption('other');
  await expect(ui.getByTestId('audit-server')).not.toHaveCount(0);
  await expect(ui.getByTestId('audit-server').filter({ hasNotText: /^other$/ })).toHaveCount(0);
  await expect(rows.filter({ hasText: 'tools/call echo' })).toHaveCount(1);
  await ui.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows.filter({ hasText: 'no_such_tool' })).toHaveCount(1);

  // The Client filter reads the trail once typing pauses, not once per keystroke: on the page's
  // clock, held still, nothing is read while typing; moved past the pause, one read.
  const reads: string[] = [];
  ui.on('request', (r) => {
    if (r.url().endsWith('/api/call/audit.list')) reads.push(r.postData() ?? '');
  });
  await ui.clock.install();
  await ui.clock.pauseAt(new Date(Date.now() + 1000));
  await ui.getByTestId('audit-client-filter').pressSequentially('audit-e2e');
  await expect(ui.getByTestId('audit-client-filter')).toHaveValue('audit-e2e');
  expect(reads).toEqual([]);
  await ui.clock.runFor(300);
  await expect.poll(() => reads.length).toBe(1);
  expect(JSON.parse(reads[0]!)).toMatchObject({ client: 'audit-e2e' });
  await expect(ui.getByTestId('audit-client').filter({ hasNotText: 'hub-token:audit-e2e' })).toHaveCount(0);
  await ui.clock.resume();
  await ui.getByRole('button', { name: 'Clear filters' }).click();
  await expect(rows.filter({ hasText: /ui.*fx/ }).first()).toBeVisible();

  await ui.getByTestId('audit-verify').click();
  await expect(ui.getByTestId('audit-verify-result')).toContainText('The chain is intact');
  await expectAccessible(ui, 'audit, with lines and the chain verified');
  await screenshot(ui, 'audit');

  // At the desktop window's minimum: nothing spills sideways, the actions and the last column in view.
  await ui.setViewportSize({ width: 900, height: 700 });
  await expect.poll(() => fitsWidth(ui)).toBe(true);
  await expect(ui.getByTestId('audit-verify')).toBeInViewport();
  await expect(ui.getByRole('columnheader', { name: 'Kind' })).toBeInViewport();
  await screenshot(ui, 'narrow-audit');

  // A line edited on disk: Verify chain names it, with its file and line number.
  const file = path.join(engine.dataDir, 'audit', 'audit.jsonl');
  const lines = (await readFile(file, 'utf8')).trim().split('\n');
  const at = lines.findIndex((l) => l.includes('"no_such_tool"'));
  expect(at, 'the no_such_tool line').toBeGreaterThanOrEqual(0);
  lines[at] = lines[at]!.replace('"outcome":"error:jsonrpc"', '"outcome":"ok"');
  await writeFile(file, `${lines.join('\n')}\n`);
  await ui.getByTestId('audit-verify').click();
  const result = ui.getByTestId('audit-verify-result');
  await expect(result).toContainText(`The chain is broken at line ${at + 1}`);
  await expect(result.getByTestId('audit-verify-where')).toHaveText(`${file}:${at + 1}`);
  await expect(result).toContainText('it was edited');
  await expectAccessible(ui, 'audit, the chain broken');
});
