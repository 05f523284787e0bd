// The playground against the official server-everything (npm), at the desktop window's minimum
// (900 × 700) — issue 28, items 2, 3, 12 and 13 (profiles):
// - the roots request it makes as soon as a session starts (no call of the person's caused it)
//   waits in an inbox that says what roots are, instead of a modal over the page; the page stays
//   usable; it is answered (or declined) from there, and the server has what was sent;
// - a profile counts the tools its playground lists (server-everything offers some only to clients
//   with sampling, elicitation and roots), and a second visit shows the profile at once;
// - the elicitation dialog: Accept in view, closable (Escape or the close button cancel, as the
//   spec's `cancel` action), a checkbox's label above its description.
import path from 'node:path';
import { expect, expectAccessible, REPO_ROOT, screenshot, test } from './fixtures.js';

const SERVER_EVERYTHING = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const everything = { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] };

test.use({
  engineConfig: { mcpServers: { everything }, profiles: { ev: { description: 'server-everything alone', servers: { everything: {} } } } },
  viewport: { width: 900, height: 700 },
});

test('a request no call caused waits in the inbox, explained; the page stays usable; answered from there', async ({ ui }) => {
  test.setTimeout(120_000);
  await ui.goto(`${ui.url().split('#')[0]}#/servers/everything/playground`);
  const inbox = ui.getByTestId('ask-inbox');
  await expect(inbox.getByTestId('ask-inbox-item')).toHaveCount(1);
  await expect(inbox).toContainText('asks for your roots: the folders it may work in');
  await expect(inbox).toContainText('not because of a call of yours');
  await expect(ui.getByTestId('ask-dialog')).toHaveCount(0);

  // The page is not blocked: a tool runs while the request waits.
  const tools = ui.getByTestId('pg-list-tools');
  await tools.getByRole('link', { name: /^Echo Tool/ }).click();
  await ui.getByLabel(/^message/).fill('still usable');
  await ui.getByTestId('run-tool').click();
  await expect(ui.getByTestId('call-result')).toContainText('Echo: still usable');
  await expect(inbox.getByTestId('ask-inbox-item')).toHaveCount(1);
  await screenshot(ui, 'playground-inbox');
  await expectAccessible(ui, 'playground with a request waiting in its inbox');

  // Answer: the form opens on request; closing it puts the request back, unanswered.
  await inbox.getByTestId('ask-inbox-answer').click();
  const dialog = ui.getByTestId('ask-dialog');
  await expect(dialog).toContainText('Roots are the folders a server may work in');
  await dialog.getByTestId('ask-dialog-close').click();
  await expect(dialog).toHaveCount(0);
  await expect(inbox.getByTestId('ask-inbox-item')).toHaveCount(1);
  await inbox.getByTestId('ask-inbox-answer').click();
  await dialog.getByTestId('roots-list').fill('/tmp/e2e-project');
  await dialog.getByTestId('roots-send').click();
  await expect(dialog).toHaveCount(0);
  await expect(inbox).toHaveCount(0);

  // The server has the root it was given.
  await tools.getByRole('link', { name: /^Get Roots List Tool/ }).click();
  await ui.getByTestId('run-tool').click();
  await expect(ui.getByTestId('call-result')).toContainText('file:///tmp/e2e-project');
});

test("a profile counts the tools its playground lists; a member's request declined from the inbox; the profile shown at once on return", async ({ ui }) => {
  test.setTimeout(120_000);
  await ui.getByTestId('nav-profiles').click();
  await ui.getByTestId('profile-tab-ev').click();
  const total = ui.getByTestId('profile-total-tools');
  await expect(total).toHaveText(/^\d+$/);
  const counted = Number(await total.textContent());
  // "Delete profile" is the size of its neighbours.
  const heights = await Promise.all(['profile-refresh', 'delete-profile'].map(async (id) => (await ui.getByTestId(id).boundingBox())!.height));
  expect(heights[1]).toBe(heights[0]);

  await ui.getByTestId('profile-playground').click();
  await expect(ui.getByTestId('pg-list-tools').getByRole('link')).toHaveCount(counted);
  await expect(ui.getByTestId('tab-tools').locator('.count')).toHaveText(String(counted));

  // The member asked for roots as its session started: declined from the inbox, no dialog.
  const inbox = ui.getByTestId('ask-inbox');
  await expect(inbox.getByTestId('ask-inbox-item')).toHaveCount(1);
  await expect(ui.getByTestId('ask-dialog')).toHaveCount(0);
  await inbox.getByTestId('ask-inbox-decline').click();
  await expect(inbox).toHaveCount(0);
  await expect(ui.getByTestId('ask-dialog')).toHaveCount(0);

  // Back on the profile: shown from what was last known while the servers are asked again
  // (the request is held until the profile is on screen).
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await ui.route('**/api/call/profiles.show', async (route) => {
    await held;
    await route.continue();
  });
  await ui.getByRole('link', { name: 'ev', exact: true }).click();
  await expect(ui.getByTestId('profile-detail')).toBeVisible();
  await expect(total).toHaveText(String(counted));
  const answered = ui.waitForResponse('**/api/call/profiles.show');
  release();
  await answered;
  await expect(total).toHaveText(String(counted));
});

test('the elicitation dialog at 900 × 700: Accept in view, Escape and Close cancel, a checkbox labelled before its description', async ({ ui }) => {
  test.setTimeout(120_000);
  await ui.goto(`${ui.url().split('#')[0]}#/servers/everything/playground`);
  // The roots request of the session's start waits in the inbox meanwhile: it does not block the tool.
  await expect(ui.getByTestId('ask-inbox-item')).toHaveCount(1);
  await ui.getByTestId('pg-list-tools').getByRole('link', { name: /^Trigger Elicitation Request Tool/ }).click();
  const dialog = ui.getByTestId('ask-dialog');

  await ui.getByTestId('run-tool').click();
  await expect(dialog.getByTestId('elicitation-form')).toBeVisible();
  await expect(dialog.getByTestId('elicitation-accept')).toBeInViewport({ ratio: 1 });
  const label = dialog.locator('.checkbox label', { hasText: 'Boolean' });
  const description = dialog.locator('.checkbox .field-description', { hasText: 'Agree to the terms and conditions' });
  expect((await label.boundingBox())!.y).toBeLessThan((await description.boundingBox())!.y);
  await expectAccessible(ui, 'elicitation dialog at 900 × 700', '[data-testid="ask-dialog"]');
  await ui.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(ui.getByTestId('call-result')).toContainText('User cancelled the elicitation dialog');

  await ui.getByTestId('run-tool').click();
  await dialog.getByTestId('ask-dialog-close').click();
  await expect(dialog).toHaveCount(0);
  await expect(ui.getByTestId('call-result')).toContainText('User cancelled the elicitation dialog');

  await ui.getByTestId('run-tool').click();
  await dialog.getByTestId('elicitation-decline').click();
  await expect(ui.getByTestId('call-result')).toContainText('User declined to provide the requested information');
});
