// The inspector as a workbench (issue 16, point 2 and defect 1): a real SDK client drives the demo
// server. A failed tool call (isError) is an error in its row, the session header, the Sessions
// list, the per-server stats, "Errors only", `patchbay tail` and the HAR export. Calls are named,
// sortable and filterable; a running call shows its elapsed time and progress; what the server
// asks during a call is nested under it; search filters and marks the timeline; the detail pane
// copies JSON and curl (no token), shows raw JSON and images, replays with edited arguments
// against the original, and compares two exchanges.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { demoEntry, expect, expectAccessible, REPO_ROOT, screenshot, test } from './fixtures.js';
import { connectClient } from './helpers/mcp-traffic.js';
import { SessionsPage } from './pages/sessions-page.js';

test.use({ engineConfig: { mcpServers: { demo: demoEntry() } } });

test('failed tools are errors everywhere; calls are named, live, nested, searchable, replayable, comparable', async ({ ui, engine, context }) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const sessions = new SessionsPage(ui);
  // `patchbay tail`, following the hub while the calls are made.
  const tail = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'patchbay.js'), 'tail', '--data-dir', engine.dataDir, '--server', 'demo'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let tailed = '';
  tail.stdout!.setEncoding('utf8').on('data', (chunk: string) => (tailed += chunk));
  const mcp = await connectClient(`${engine.url}/mcp/demo`, await engine.token(), 'e2e-inspector', { elicit: { name: 'Grace', guests: 2 } });
  try {
    await sessions.open();
    await sessions.sessionLink('e2e-inspector').click();
    await expect(sessions.timeline()).toBeVisible();
    // tail starts from the present: ping until it prints, so it is following before the calls below.
    await expect
      .poll(async () => {
        await mcp.client.ping();
        return tailed.includes('ping');
      })
      .toBe(true);

    await mcp.client.callTool({ name: 'echo', arguments: { text: 'needle-1' } });
    await mcp.client.callTool({ name: 'echo', arguments: { text: 'needle-2' } });
    const failed = await mcp.client.callTool({ name: 'read_secret', arguments: { path: '/etc/shadow' } });
    expect(failed.isError).toBe(true);

    // A running call: elapsed time and progress x / total, live.
    const running = mcp.client.callTool({ name: 'long_task', arguments: { steps: 8, stepMs: 400 } }, { onprogress: () => {} });
    await expect(ui.getByTestId('row-running')).toContainText(/[1-7] \/ 8/);
    await running;
    await expect(ui.getByTestId('row-running')).toHaveCount(0);

    // What the server asks during a call is nested under it.
    await mcp.client.callTool({ name: 'book_table', arguments: {} });
    const elicitation = sessions.rows('elicitation/create');
    await expect(elicitation).toHaveAttribute('aria-level', '2');
    await mcp.client.callTool({ name: 'chart', arguments: { values: [2, 5, 3] } });

    // The failed tool call: an error in its row, the header, and under "Errors only".
    const failedRow = ui.getByTestId('timeline-row').filter({ has: ui.getByTestId('row-target').getByText('read_secret', { exact: true }) });
    await expect(failedRow).toHaveAttribute('data-status', 'error');
    await expect(failedRow).toContainText('tool error');
    await expect(ui.getByTestId('session-errors')).toHaveText('1 error');
    await ui.getByTestId('errors-only').check();
    await expect(ui.getByTestId('row-count')).toContainText(/^1 of \d+ rows/);
    await expect(sessions.rows()).toHaveCount(1);
    await sessions.rows().first().click();
    await expect(ui.getByTestId('detail-tool-error')).toContainText('Access denied: /etc/shadow');
    await ui.getByTestId('errors-only').uncheck();

    // Calls named and filterable by name; sortable by latency.
    await ui.getByTestId('target-filter').selectOption('echo');
    await expect(sessions.rows('tools/call')).toHaveCount(2);
    await ui.getByTestId('target-filter').selectOption('');
    await ui.getByTestId('sort-latency').click();
    // The selected row (read_secret, clicked above) is kept in view as the order changes, so the
    // virtualized list may now be scrolled down, its first rows not rendered: read it from the top.
    await sessions.timeline().evaluate((el) => {
      el.scrollTop = 0;
    });
    await expect(sessions.rows().first().getByTestId('row-target')).toHaveText('long_task');
    await ui.getByTestId('sort-latency').click();
    await ui.getByTestId('sort-latency').click();

    // Search filters the timeline to one row per exchange, and marks the text.
    await ui.getByTestId('session-search').fill('needle-2');
    await ui.getByRole('button', { name: 'Search' }).click();
    await expect(ui.getByTestId('search-summary')).toContainText('1 row match');
    await expect(sessions.rows()).toHaveCount(1);
    await expect(sessions.rows().first()).toHaveAttribute('data-match', 'true');
    await sessions.rows().first().click();
    await expect(ui.getByTestId('json-request')).toContainText('needle-2');
    await ui.getByTestId('search-clear').click();

    // The detail pane: copy JSON, copy as curl (the token never in it), raw view.
    await ui.getByTestId('copy-json').click();
    expect(await ui.evaluate(() => navigator.clipboard.readText())).toContain('"needle-2"');
    await ui.getByTestId('copy-curl').click();
    await expect(ui.getByTestId('copy-curl')).toContainText('Copied');
    const curl = await ui.evaluate(() => navigator.clipboard.readText());
    expect(curl).toContain(`${engine.url}/mcp/demo`);
    // The token is read from its file by the command itself (inspector-polish.spec.ts runs it).
    expect(curl).toContain(`Bearer $(cat '${path.join(engine.dataDir, 'hub-token')}')`);
    expect(curl).not.toContain(await engine.token());
    await ui.getByTestId('raw-view').click();
    await expect(ui.getByTestId('json-request')).toHaveJSProperty('tagName', 'PRE');
    await ui.getByRole('button', { name: 'Tree' }).click();

    // Replay with edited arguments, against the original.
    await ui.getByTestId('open-replay').click();
    await ui.getByTestId('replay-params').fill(JSON.stringify({ name: 'echo', arguments: { text: 'edited-in-replay' } }));
    await ui.getByTestId('replay').click();
    const diff = ui.getByTestId('replay-diff');
    await expect(diff).toContainText('needle-2');
    await expect(diff).toContainText('edited-in-replay');
    await expect(diff).toBeInViewport();

    // Compare two exchanges: pin one, pick another.
    await ui.getByTestId('pin-compare').click();
    await sessions.rows('tools/call').first().click();
    await ui.getByTestId('compare-with').click();
    const compare = ui.getByTestId('compare-drawer');
    await expect(compare.getByTestId('compare-request')).toContainText('needle-1');
    await expect(compare.getByTestId('compare-request')).toContainText('needle-2');
    await screenshot(ui, 'inspector-compare');
    await compare.getByRole('button', { name: 'Close' }).click();

    // An image in a result is shown (long_task's progress and log rows folded away first: the timeline is virtualized).
    await ui.getByTestId('timeline-row').filter({ has: ui.getByTestId('row-target').getByText('long_task', { exact: true }) }).getByRole('button', { name: 'Hide what happened during this call' }).click();
    await ui.getByTestId('timeline-row').filter({ has: ui.getByTestId('row-target').getByText('chart', { exact: true }) }).click();
    await expect(ui.getByTestId('result-preview').locator('img')).toBeVisible();
    await expect(ui.getByTestId('latency-chart')).toBeVisible();
    await ui.getByTestId('timeline-row').filter({ has: ui.getByTestId('row-target').getByText('book_table', { exact: true }) }).click();
    await screenshot(ui, 'session-view');
    await expectAccessible(ui, 'session view');

    // The HAR export says it failed.
    const download = ui.waitForEvent('download');
    await ui.getByTestId('export-har').click();
    const har = JSON.parse(await readFile(await (await download).path(), 'utf8')) as { log: { entries: Array<{ _patchbay: { status: string; isError?: boolean; reason?: string } }> } };
    expect(har.log.entries.filter((e) => e._patchbay.status === 'error')).toEqual([expect.objectContaining({ _patchbay: expect.objectContaining({ isError: true, reason: expect.stringContaining('Access denied') }) })]);

    // The Sessions list and the server's stats count it; `patchbay tail` printed it as a failure.
    await sessions.open();
    await expect(ui.getByTestId('session-row').filter({ hasText: 'e2e-inspector' }).getByTestId('session-errors-cell')).toHaveText('1');
    await ui.getByTestId('nav-servers').click();
    await expect(ui.getByTestId('server-row-demo').getByTestId('server-errors')).toHaveText('1');
    await expect.poll(() => tailed).toMatch(/tools\/call\s.*error tool failed: Access denied: \/etc\/shadow/);
  } finally {
    await mcp.close();
    tail.kill('SIGTERM');
  }
});
