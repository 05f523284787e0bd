// The playground on a profile (issue 16, point 1, "and a profile's"): from the Profiles screen,
// "Open in playground" opens a session on the profile's aggregated endpoint (@pair) through the
// hub. Its tools are listed by the prefixed names clients call; one is called from its generated
// form and its result shown; a member's sampling request is answered in the dialog and reaches
// that member; the target picker lists servers and profiles, Ctrl-K its tools. The calls are a playground session
// of @pair in the inspector, hidden from the default Sessions list and marked when shown.
import path from 'node:path';
import { expect, expectAccessible, REPO_ROOT, screenshot, test } from './fixtures.js';

const fixture = (name: string): Record<string, unknown> => ({ command: process.execPath, args: [path.join(REPO_ROOT, 'test', 'fixtures', `${name}-server.mjs`)] });

test.use({
  engineConfig: {
    mcpServers: { alpha: fixture('alpha'), beta: fixture('beta') },
    profiles: { pair: { description: 'alpha and beta', servers: { alpha: { tools: ['echo', 'add'] }, beta: {} } } },
  },
});

test('open a profile in the playground, call a prefixed tool from its form, answer a member, find the calls in the inspector', async ({ ui }) => {
  test.setTimeout(120_000);
  await ui.getByTestId('nav-profiles').click();
  await ui.getByTestId('profile-tab-pair').click();
  await expect(ui.getByTestId('profile-detail')).toBeVisible();
  await expectAccessible(ui, 'profile with its playground action');
  await ui.getByTestId('profile-playground').click();

  await expect(ui).toHaveURL(/#\/profiles\/pair\/playground$/);
  await expect(ui.getByRole('heading', { level: 1, name: 'Playground of profile pair' })).toBeVisible();
  // What the profile lets through, by the names its clients call: alpha's two tools and all of beta's.
  const tools = ui.getByTestId('pg-list-tools');
  await expect(tools.getByRole('link', { name: /^alpha__echo/ })).toBeVisible();
  await expect(tools.getByRole('link', { name: /^alpha__/ })).toHaveCount(2);
  await expect(tools.getByRole('link', { name: /^beta__ask/ })).toBeVisible();
  await expect(tools.getByRole('link', { name: /whoami/ })).toHaveCount(1);
  // The picker: this profile is the target; servers and profiles are offered.
  const picker = ui.getByTestId('playground-target');
  await expect(picker).toHaveValue('@pair');
  await expect(picker.locator('optgroup[label="Servers"] option')).toHaveText(['alpha', 'beta']);
  await expect(picker.locator('optgroup[label="Profiles"] option')).toContainText(['@default', '@pair']);

  // A prefixed tool from its generated form; the member answers under its own name.
  await tools.getByRole('link', { name: /^alpha__echo/ }).click();
  await expect(ui).toHaveURL(/#\/profiles\/pair\/playground\/tool%3Aalpha__echo$/);
  await ui.getByLabel(/^text/).fill('hello through the profile');
  await ui.getByTestId('run-tool').click();
  await expect(ui.getByTestId('call-status')).toHaveText('ok');
  await expect(ui.getByTestId('call-result')).toContainText('alpha: hello through the profile');
  await screenshot(ui, 'profile-playground');
  await expectAccessible(ui, 'profile playground');

  // beta asks the client to sample while its tool runs: the person answers as the model, beta uses it.
  await tools.getByRole('link', { name: /^beta__ask/ }).click();
  await ui.getByLabel(/^question/).fill('Which colour?');
  await ui.getByTestId('run-tool').click();
  await expect(ui.getByTestId('sampling')).toContainText('Which colour?');
  await ui.getByTestId('sampling-reply').fill('teal');
  await ui.getByTestId('sampling-send').click();
  await expect(ui.getByTestId('call-result')).toContainText('beta heard: teal');
  // The profile's playground keeps its own history of calls.
  await expect(ui.getByTestId('history-row')).toHaveCount(2);
  await expect(ui.getByTestId('history-row').first()).toContainText('beta__ask');

  // The calls are a session of @pair in the inspector, marked as the playground's.
  await ui.getByTestId('open-in-inspector').click();
  await expect(ui.getByRole('heading', { level: 1, name: 'patchbay-playground → @pair' })).toBeVisible();
  const calls = ui.getByTestId('timeline-row').and(ui.locator('[data-method="tools/call"]'));
  await expect(calls).toHaveCount(2);
  await expect(ui.getByTestId('row-target').filter({ hasText: 'alpha__echo' })).toHaveCount(1);
  await expect(ui.getByTestId('row-target').filter({ hasText: 'beta__ask' })).toHaveCount(1);

  // Hidden from the default Sessions list; shown, marked, when asked for.
  await ui.getByTestId('nav-sessions').click();
  await expect(ui.getByTestId('sessions-filtered-empty')).toBeVisible();
  await ui.getByTestId('show-playground').check();
  const row = ui.getByTestId('session-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('patchbay-playground');
  await expect(row).toContainText('@pair');
  await expect(row.locator('.chip', { hasText: 'playground' })).toBeVisible();
  // What the profile exchanged with each member on the playground's behalf: shown when asked for,
  // marked, linked to the session it served.
  await ui.getByTestId('show-members').check();
  await expect(row).toHaveCount(3);
  await expect(ui.getByTestId('session-member-of')).toHaveCount(2);
  await expect(ui.getByTestId('session-member-of').first()).toContainText('member of @pair');
  await expect(ui.getByTestId('session-member-of').first().getByRole('link', { name: 'its session' })).toBeVisible();

  // The picker moves to a server's playground.
  await ui.goto(`${ui.url().split('#')[0]}#/profiles/pair/playground`);
  await ui.getByTestId('playground-target').selectOption('beta');
  await expect(ui).toHaveURL(/#\/servers\/beta\/playground$/);
  await expect(ui.getByTestId('pg-list-tools').getByRole('link', { name: /^ask/ })).toBeVisible();
  // A server's history is its own: the profile's calls are not in it.
  await expect(ui.getByTestId('history-row')).toHaveCount(0);

  // Ctrl-K knows the profile and its prefixed tools: a tool of @pair opens in the profile's playground.
  await ui.keyboard.press('Control+k');
  await ui.getByTestId('palette-input').fill('@pair');
  await expect(ui.getByTestId('palette-item').filter({ hasText: '@pair playground' })).toHaveCount(1);
  await ui.getByTestId('palette-input').fill('alpha__add');
  await expect(ui.getByTestId('palette-item').first()).toContainText('tool of @pair');
  await ui.keyboard.press('Enter');
  await expect(ui).toHaveURL(/#\/profiles\/pair\/playground\/tool%3Aalpha__add$/);
});
