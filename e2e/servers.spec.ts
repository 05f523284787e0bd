// Servers: add a stdio server through the form and see its tools; break it and see the error
// where it happened; import a pasted snippet. Screenshots and an axe check of each screen.
import { readFile } from 'node:fs/promises';
import { everythingEntry, EVERYTHING_SERVER, expect, expectAccessible, screenshot, test } from './fixtures.js';
import { ServersPage } from './pages/servers-page.js';

test('add a stdio server through the form, see its tools, then break it and see why', async ({ ui }) => {
  test.setTimeout(120_000);
  const servers = new ServersPage(ui);
  await expect(ui.getByTestId('servers-empty')).toBeVisible();
  await expectAccessible(ui, 'servers (empty)');

  await servers.addStdio({ name: 'everything', command: process.execPath, args: [EVERYTHING_SERVER], env: { FIXTURE_STDERR_BANNER: 'hello from stderr' } });
  await expect(ui.getByRole('heading', { level: 1, name: 'everything' })).toBeVisible();
  await expect(ui.getByTestId('test-result')).toContainText('patchbay-everything-fixture');
  await expect(servers.tools()).toContainText('echo');
  await expect(ui.getByTestId('test-resources')).toBeVisible();
  await screenshot(ui, 'server-detail');
  await expectAccessible(ui, 'server detail');

  await servers.open();
  await expect(servers.row('everything')).toBeVisible();
  await screenshot(ui, 'servers');
  await expectAccessible(ui, 'servers');

  // Break it: a command that does not exist. The test after saving says so, and so does the list.
  await servers.row('everything').getByRole('link', { name: 'everything', exact: true }).click();
  await servers.editCommand('everything', '/nonexistent/patchbay-no-such-command');
  await expect(ui.getByTestId('test-error')).toContainText('command not found: /nonexistent/patchbay-no-such-command');
  await screenshot(ui, 'server-error');
  await servers.open();
  // The list follows the server's status events; a snapshot taken before the failure cannot undo it.
  await expect(servers.row('everything').getByTestId('server-state')).toHaveText('Error');
  await expect(servers.row('everything').getByTestId('server-last-error')).toContainText('command not found');
  // The engine keeps it too: a fresh page (a fresh overview) says the same.
  await ui.reload();
  await expect(servers.row('everything').getByTestId('server-state')).toHaveText('Error');
  await expect(servers.row('everything').getByTestId('server-last-error')).toContainText('command not found');
});

test.describe('a server page', () => {
  test.use({ engineConfig: { mcpServers: { fx: everythingEntry() } } });

  test('opens on its first tab, lists the tools its playground listed, and its numbers move with a test', async ({ ui }) => {
    const servers = new ServersPage(ui);
    await servers.open();
    await servers.row('fx').getByRole('link', { name: 'fx', exact: true }).click();
    const tabs = ui.getByRole('navigation', { name: 'fx views' }).getByRole('link');
    await expect(tabs.first()).toHaveAttribute('aria-current', 'page');
    await expect(tabs.first()).toHaveText('Details & stats');
    await expect(ui.getByTestId('offers-unknown')).toBeVisible();

    // The playground lists the tools; back on the details they are known without a test.
    await ui.getByTestId('tab-playground').click();
    await expect(ui.getByTestId('pg-list-tools').getByRole('link').first()).toBeVisible();
    await ui.getByTestId('tab-details').click();
    await expect(ui.getByTestId('known-offers')).toBeVisible();
    await expect(servers.tools()).toContainText('echo');

    // A test's own requests are calls: the numbers shown move with it.
    const calls = ui.getByTestId('stat-calls');
    await expect(calls).not.toHaveText('0');
    const before = Number(await calls.textContent());
    await ui.getByTestId('test-connection').click();
    await expect(ui.getByTestId('test-result')).toBeVisible();
    await expect.poll(async () => Number(await calls.textContent())).toBeGreaterThan(before);
  });
});

test('the form says what to fix before anything is saved', async ({ ui }) => {
  await ui.getByTestId('add-server').click();
  await ui.getByLabel('Name', { exact: true }).fill('bad name!');
  await ui.getByTestId('save-server').click();
  await expect(ui.getByTestId('error-name')).toContainText('letters, digits');
  await expect(ui.getByTestId('error-command')).toContainText('Enter the program to run');
  await expect(ui.getByLabel('Name', { exact: true })).toBeFocused();
  await screenshot(ui, 'server-form');
  await expectAccessible(ui, 'server form');
});

test.describe('import', () => {
  test.use({ engineConfig: { mcpServers: { existing: everythingEntry() } } });

  test('a pasted mcpServers snippet is previewed, then imported; bad entries are named', async ({ ui }) => {
    const servers = new ServersPage(ui);
    await ui.getByTestId('import-servers').click();
    const snippet = JSON.stringify({ mcpServers: { pasted: everythingEntry(), existing: everythingEntry(), broken: { args: ['x'] } } });
    await ui.getByTestId('import-snippet').fill(snippet);
    await ui.getByTestId('import-preview').click();
    const result = ui.getByTestId('import-result');
    await expect(result).toContainText('Will add: pasted');
    await expect(result).toContainText('Already there, left alone: existing');
    await expect(result).toContainText('$.mcpServers.broken');
    await expectAccessible(ui, 'import');
    await ui.getByTestId('import-apply').click();
    await expect(result).toContainText('Added: pasted');
    await servers.open();
    await expect(servers.row('pasted')).toBeVisible();
  });
});

test.describe('secret checks', () => {
  test.use({ engineConfig: { mcpServers: { fx: everythingEntry() } } });

  test('are set per server from the form (default warn, not written)', async ({ ui, engine }) => {
    const servers = new ServersPage(ui);
    await servers.open();
    await servers.row('fx').getByRole('link', { name: 'fx', exact: true }).click();
    await ui.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect(ui.getByLabel('Secret checks')).toHaveValue('warn');
    await ui.getByLabel('Secret checks').selectOption('block');
    await expectAccessible(ui, 'server form (secret checks)', 'form');
    await ui.getByTestId('save-server').click();
    await expect(ui.getByTestId('test-result')).toContainText('patchbay-everything-fixture');
    const written = JSON.parse(await readFile(engine.configFile, 'utf8')) as { mcpServers: { fx: { secretCheck?: unknown } } };
    expect(written.mcpServers.fx.secretCheck).toBe('block');
  });
});

test.describe('a sandboxed server', () => {
  test.use({ engineConfig: { mcpServers: { fx: everythingEntry() } } });

  test('is set from the form, marked in the list and on its page, and answers its test from inside bubblewrap', async ({ ui, engine }) => {
    const servers = new ServersPage(ui);
    await servers.open();
    await expect(servers.row('fx').getByTestId('server-sandboxed')).toHaveCount(0);
    await servers.row('fx').getByRole('link', { name: 'fx', exact: true }).click();
    await ui.getByRole('link', { name: 'Edit', exact: true }).click();
    await ui.getByTestId('sandbox-toggle').check();
    // The hub says what this machine's sandbox is (hub.status).
    await expect(ui.getByTestId('sandbox-here')).toContainText(/^On this machine: bubblewrap/);
    await ui.getByLabel('Network').selectOption('none');
    await expectAccessible(ui, 'server form (sandbox)', '[data-testid="sandbox-fields"]');
    await ui.getByTestId('save-server').click();
    // Saving tests it: the fixture starts in its sandbox and lists its tools.
    await expect(ui.getByTestId('test-result')).toContainText('patchbay-everything-fixture');
    await expect(ui.getByText('sandboxed', { exact: true })).toBeVisible();
    const written = JSON.parse(await readFile(engine.configFile, 'utf8')) as { mcpServers: { fx: { sandbox?: unknown } } };
    expect(written.mcpServers.fx.sandbox).toEqual({ network: 'none' });
    await servers.open();
    await expect(servers.row('fx').getByTestId('server-sandboxed')).toBeVisible();
  });

  test('takes a list of hosts and "no other programs" from the form, and the server answers its test under both', async ({ ui, engine }) => {
    const servers = new ServersPage(ui);
    await servers.open();
    await servers.row('fx').getByRole('link', { name: 'fx', exact: true }).click();
    await ui.getByRole('link', { name: 'Edit', exact: true }).click();
    await ui.getByTestId('sandbox-toggle').check();
    await ui.getByLabel('Network').selectOption('hosts');
    await ui.getByTestId('save-server').click();
    await expect(ui.getByText('Enter at least one host')).toBeVisible();
    await ui.getByLabel('Hosts, one a line').fill('api.example.com\n*.example.org:8443');
    await ui.getByTestId('sandbox-subprocesses').uncheck();
    await expectAccessible(ui, 'server form (sandbox: hosts)', '[data-testid="sandbox-fields"]');
    await ui.getByTestId('save-server').click();
    // The fixture starts behind the proxy's forwarder, under the no-subprocess filter, and lists its tools.
    await expect(ui.getByTestId('test-result')).toContainText('patchbay-everything-fixture');
    const written = JSON.parse(await readFile(engine.configFile, 'utf8')) as { mcpServers: { fx: { sandbox?: unknown } } };
    expect(written.mcpServers.fx.sandbox).toEqual({ network: ['api.example.com', '*.example.org:8443'], subprocesses: false });
  });
});
