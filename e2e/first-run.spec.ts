// First run (issue 16, point 5): a fresh data dir starts with Patchbay's demo server; the login
// link opens straight into its playground; a tool runs from its generated form; the call is in
// the inspector; the demo goes in one click (and comes back with Undo).
import { readFile } from 'node:fs/promises';
import { expect, expectAccessible, screenshot, test } from './fixtures.js';

test.use({ engineConfig: null });

test('a fresh install opens on the demo server: call a tool, see it in the inspector, remove the demo', async ({ page, engine }) => {
  test.setTimeout(120_000);
  const config = JSON.parse(await readFile(engine.configFile, 'utf8')) as { mcpServers: Record<string, { demo?: boolean; command: string }> };
  expect(config.mcpServers.demo).toMatchObject({ demo: true, command: process.execPath });
  expect(engine.output()).not.toContain('no servers yet');

  await page.goto(engine.loginUrl);
  // Straight into the demo's playground, its tools listed.
  await expect(page).toHaveURL(/#\/servers\/demo\/playground$/);
  await expect(page.getByRole('heading', { level: 1, name: 'demo' })).toBeVisible();
  const tools = page.getByTestId('pg-list-tools');
  await expect(tools.getByRole('link')).toHaveCount(7);
  await expect(page.getByTestId('pg-empty')).toContainText('try book_table');
  await screenshot(page, 'first-run');

  // A tool from its generated form: the result comes back rendered.
  await tools.getByRole('link', { name: /Add two numbers/ }).click();
  await page.getByLabel(/^a\*?$/).fill('2');
  await page.getByLabel(/^b\*?$/).fill('40');
  await page.getByTestId('run-tool').click();
  await expect(page.getByTestId('call-status')).toHaveText('ok');
  await expect(page.getByTestId('call-result')).toContainText('2 + 40 = 42');
  await expect(page.getByTestId('schema-check')).toContainText('matches the output schema');
  // The form keeps what was typed, ready for the next call.
  await expect(page.getByLabel(/^a\*?$/)).toHaveValue('2');
  await expectAccessible(page, 'playground');

  // It is a session in the inspector, marked as the playground's.
  await page.getByTestId('open-in-inspector').click();
  await expect(page.getByRole('heading', { level: 1, name: 'patchbay-playground → demo' })).toBeVisible();
  await expect(page.getByTestId('timeline-row').and(page.locator('[data-method="tools/call"]'))).toHaveCount(1);
  await expect(page.getByTestId('row-target').first()).toHaveText('add');

  // The demo goes in one click, and Undo brings it back.
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('remove-demo-demo').click();
  await expect(page.getByTestId('server-row-demo')).toHaveCount(0);
  await expect.poll(async () => Object.keys((JSON.parse(await readFile(engine.configFile, 'utf8')) as { mcpServers: object }).mcpServers)).toEqual([]);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByTestId('server-row-demo')).toBeVisible();
  await expect(page.getByTestId('server-row-demo')).toContainText('demo');
});
