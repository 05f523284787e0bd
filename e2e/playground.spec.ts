// The playground (issue 16, point 1): a person is the client. Tools from generated forms and from
// raw JSON, results rendered by type (an image, structured content against its output schema, a
// failing tool), progress while it runs, an elicitation and a sampling request answered in a
// dialog (the answer reaches the server: it uses it in its result), a prompt and a resource
// template filled with the server's completions. Its sessions are marked and hidden by default.
import { demoEntry, expect, expectAccessible, screenshot, test } from './fixtures.js';

test.use({ engineConfig: { mcpServers: { demo: demoEntry() } } });

test('call tools, answer the server, use prompts and templates; the calls are playground sessions', async ({ ui }) => {
  test.setTimeout(150_000);
  await ui.goto(`${ui.url().split('#')[0]}#/servers/demo/playground`);
  const tools = ui.getByTestId('pg-list-tools');
  await expect(tools.getByRole('link')).toHaveCount(7);

  // Elicitation: the tool asks; the dialog's form comes from the requested schema; the answer reaches the server.
  await tools.getByRole('link', { name: /Book a table/ }).click();
  await ui.getByTestId('run-tool').click();
  const dialog = ui.getByTestId('ask-dialog');
  await expect(dialog).toContainText('how many people, and when?');
  await dialog.getByLabel(/^Name on the booking/).fill('Ada');
  await dialog.getByLabel(/^Guests/).fill('3');
  await dialog.getByLabel(/^Time/).selectOption({ label: '21:00' });
  await screenshot(ui, 'playground-elicitation');
  await expectAccessible(ui, 'elicitation dialog', '[data-testid="ask-dialog"]');
  await dialog.getByTestId('elicitation-accept').click();
  await expect(dialog).toHaveCount(0);
  await expect(ui.getByTestId('call-result')).toContainText('Booked for Ada: 3 guest(s) at 21:00.');

  // Sampling: the person answers as the model.
  await tools.getByRole('link', { name: /Summarize/ }).click();
  await ui.getByLabel(/^text/).fill('A long text about patch cables.');
  await ui.getByTestId('run-tool').click();
  await expect(ui.getByTestId('sampling')).toContainText('Summarize in one line');
  await ui.getByTestId('sampling-reply').fill('Cables, briefly.');
  await ui.getByTestId('sampling-send').click();
  await expect(ui.getByTestId('call-result')).toContainText('Summary (you (Patchbay playground)): Cables, briefly.');

  // Progress while it runs: elapsed time and x / total, then the result.
  await tools.getByRole('link', { name: /Long task/ }).click();
  await ui.getByTestId('mode-json').click();
  await ui.getByTestId('tool-args-json').fill('{ "steps": 6, "stepMs": 500 }');
  await ui.getByTestId('run-tool').click();
  await expect(ui.getByTestId('call-running')).toContainText(/Running \d.*[1-5] \/ 6/);
  await expect(ui.getByTestId('call-result')).toContainText('Done: 6 steps.');

  // An image, rendered.
  await tools.getByRole('link', { name: /Draw a bar chart/ }).click();
  await ui.getByTestId('mode-json').click();
  await ui.getByTestId('tool-args-json').fill('{ "values": [3, 7, 4, 9, 6, 8] }');
  await ui.getByTestId('run-tool').click();
  const image = ui.getByTestId('content-image').locator('img');
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
  await ui.locator('main').evaluate((m) => m.scrollTo({ top: 0 }));
  await ui.getByTestId('content-image').scrollIntoViewIfNeeded();
  await screenshot(ui, 'playground');

  // A failing tool is a failure, not an "ok".
  await tools.getByRole('link', { name: /Read a protected file/ }).click();
  await ui.getByTestId('run-tool').click();
  await expect(ui.getByTestId('call-status')).toHaveText('tool error');
  await expect(ui.getByTestId('call-result')).toContainText('Access denied: /etc/shadow');

  // A prompt, its argument completed as you type.
  await ui.getByTestId('tab-prompts').click();
  await ui.getByTestId('pg-list-prompts').getByRole('link', { name: /Review code/ }).click();
  await ui.getByTestId('prompt-arg-language').fill('ty');
  await ui.getByTestId('completion-item').filter({ hasText: 'typescript' }).click();
  await expect(ui.getByTestId('prompt-arg-language')).toHaveValue('typescript');
  await ui.getByTestId('prompt-arg-code').fill('let x = 1');
  await ui.getByTestId('get-prompt').click();
  await expect(ui.getByTestId('call-result')).toContainText('Please review this typescript code');

  // A resource template, its variable completed.
  await ui.getByTestId('tab-resources').click();
  await ui.getByTestId('pg-list-templates').getByRole('link', { name: /Notes on a topic/ }).click();
  await ui.getByTestId('template-var-topic').fill('pla');
  await ui.getByTestId('completion-item').filter({ hasText: 'playground' }).click();
  await expect(ui.getByTestId('template-uri')).toHaveText('demo://notes/playground');
  await ui.getByTestId('read-template').click();
  await expect(ui.getByTestId('call-result')).toContainText("Patchbay's playground, in short.");
  await expectAccessible(ui, 'playground (prompts and resources)');

  // The playground's session is hidden from the default Sessions list; the filter shows it, marked.
  await ui.getByTestId('nav-sessions').click();
  await expect(ui.getByTestId('sessions-filtered-empty')).toBeVisible();
  await ui.getByTestId('show-playground').check();
  const row = ui.getByTestId('session-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('patchbay-playground');
  await expect(row).toContainText('playground');
  // One failed tool call: counted as an error.
  await expect(row.getByTestId('session-errors-cell')).toHaveText('1');
});
