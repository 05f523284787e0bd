// The playground keeps a history of its calls (issue 28, "closer to DevTools"): each tool call
// made from it — tool, arguments, when, status, duration — listed newest first, kept across a
// reload of the page; run again as it was, loaded into the form to edit, two compared with the
// inspector's diff viewer.
import { demoEntry, expect, expectAccessible, test } from './fixtures.js';

test.use({ engineConfig: { mcpServers: { demo: demoEntry() } } });

test('the history of calls: kept across a reload, re-run, edited, two compared', async ({ ui }) => {
  test.setTimeout(120_000);
  await ui.goto(`${ui.url().split('#')[0]}#/servers/demo/playground`);
  const history = ui.getByTestId('pg-history');
  await expect(history).toContainText('Tool calls you run here are kept');
  await ui.getByTestId('pg-list-tools').getByRole('link', { name: /^Echo/ }).click();
  const text = ui.getByLabel(/^text/);
  const result = ui.getByTestId('call-result');
  await text.fill('first');
  await ui.getByTestId('run-tool').click();
  await expect(result).toContainText('first');
  await text.fill('second');
  await ui.getByTestId('run-tool').click();
  await expect(result).toContainText('second');

  const rows = history.getByTestId('history-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('{"text":"second"}');
  await expect(rows.first().getByTestId('history-status')).toHaveText('ok');
  await expectAccessible(ui, 'playground with its history');

  // Kept across a reload of the page.
  await ui.reload();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('{"text":"first"}');

  // Re-run the older call as it was: a new call, a new row.
  await rows.nth(1).getByTestId('history-rerun').click();
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText('{"text":"first"}');
  await expect(result).toContainText('first');

  // Edit: its arguments in the tool's form, not run.
  await rows.nth(1).getByTestId('history-edit').click();
  await expect(text).toHaveValue('second');
  await expect(rows).toHaveCount(3);

  // Compare two: their results diffed.
  await rows.nth(0).getByTestId('history-tick').check();
  await rows.nth(1).getByTestId('history-tick').check();
  await history.getByTestId('history-compare-button').click();
  const drawer = ui.getByTestId('history-compare');
  await expect(drawer.getByTestId('history-compare-args')).toContainText('second');
  await expect(drawer.getByTestId('history-compare-result')).toContainText('first');
  await expect(drawer.getByTestId('history-compare-result')).toContainText('second');
  await expectAccessible(ui, 'two calls compared', '[data-testid="history-compare"]');
  await ui.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
});
