// MCP Apps in the playground (issue 26, part 1): the playground is the app's host. A real App
// server from npm (server-basic-react, stdio) renders its app under get-time's result, in an
// opaque-origin iframe from the engine's sandbox page; the app's button calls the server's tool
// through the hub, the app shows the new time, and the inspector marks the call as the app's.
// A hostile app (navigates the top page, calls another member's tool, posts garbage and a flood,
// then loops) is stopped and cannot break or escape the page.
import path from 'node:path';
import { expect, expectAccessible, REPO_ROOT, test } from './fixtures.js';

const basicReact = { command: process.execPath, args: [path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-basic-react', 'dist', 'index.js'), '--stdio'] };
const appFixture = (...args: string[]): Record<string, unknown> => ({ command: process.execPath, args: [path.join(REPO_ROOT, 'test', 'fixtures', 'app-server.mjs'), ...args] });

test.describe('a real App server', () => {
  test.use({ engineConfig: { mcpServers: { basic: basicReact } } });

  test('get-time renders its app; the app calls the tool; the inspector marks the call as the app’s', async ({ ui, engine }) => {
    test.setTimeout(120_000);
    await ui.goto(`${engine.url}/ui/#/servers/basic/playground`);
    await ui.getByTestId('pg-list-tools').getByRole('link', { name: /^Get Time/ }).click();
    await ui.getByTestId('run-tool').click();
    await expect(ui.getByTestId('call-status')).toHaveText('ok');
    await expect(ui.getByTestId('app-frame')).toHaveAttribute('sandbox', 'allow-scripts');

    const app = ui.frameLocator('[data-testid=app-frame]');
    const time = app.locator('code').first();
    // The tool result reached the app (ui/notifications/tool-result): it shows the server's time.
    await expect(time).toHaveText(/\d{4}-\d\d-\d\dT/);
    const first = await time.textContent();
    await app.getByRole('button', { name: 'Get Server Time' }).click();
    await expect(time).not.toHaveText(first ?? '');
    await expect(time).toHaveText(/\d{4}-\d\d-\d\dT/);
    // The app's document is on an opaque origin: this page's cookie and storage are out of its reach.
    expect(await ui.locator('[data-testid=app-frame]').evaluate((f) => (f as HTMLIFrameElement).contentDocument)).toBeNull();
    // The page around the app, its frame included (title, sandbox); what is inside the frame is the app's own.
    await expectAccessible(ui, 'playground with an MCP App', undefined, '[data-testid=app-frame]');

    // The person's call and the app's, in the inspector: only the app's is marked.
    await ui.getByTestId('open-in-inspector').click();
    const rows = ui.getByTestId('row-target').filter({ hasText: /^get-time$/ });
    await expect(rows).toHaveCount(2);
    await expect(ui.getByTestId('row-app')).toHaveCount(1);
    await expect(ui.locator('[data-testid=row-app]').locator('xpath=..').getByTestId('row-target')).toHaveText('get-time');

    // The app's ui:// resource, read by the playground: Render shows the app, read-only.
    await ui.getByTestId('row-target').filter({ hasText: 'ui://get-time/mcp-app.html' }).click();
    await ui.getByTestId('app-render-toggle').click();
    await expect(ui.frameLocator('[data-testid=app-frame]').getByRole('button', { name: 'Get Server Time' })).toBeVisible();
    // The Render section (the detail's long resource text in a <pre> is the inspector's own, checked elsewhere).
    await expectAccessible(ui, 'inspector rendering an MCP App', '[data-testid=app-render]', '[data-testid=app-frame]');
    await ui.getByTestId('app-render-toggle').click();
    await expect(ui.getByTestId('app-frame')).toHaveCount(0);

    // The person's get-time call: its tool has a UI (the session's tools/list says so), so Render
    // shows the app as the host did — fed the call's own result, the time it answered then.
    await rows.first().click();
    await ui.getByTestId('app-render-toggle').click();
    await expect(ui.frameLocator('[data-testid=app-frame]').locator('code').first()).toHaveText(first ?? '');
    await expectAccessible(ui, 'inspector rendering a tool call’s MCP App', '[data-testid=app-render]', '[data-testid=app-frame]');
  });
});

test.describe('a hostile app in a profile', () => {
  test.use({
    engineConfig: {
      mcpServers: { hostile: appFixture('--app', 'hostile', '--hostile', 'show_other'), other: appFixture('--app', 'other'), looper: appFixture('--app', 'looper', '--hostile', 'loop') },
      profiles: { duo: { servers: ['hostile', 'other'] } },
    },
  });

  test('cannot break or escape the page, nor call another member’s tool', async ({ ui, engine }) => {
    test.setTimeout(120_000);
    const home = `${engine.url}/ui/#/profiles/duo/playground`;
    await ui.goto(home);
    const tools = ui.getByTestId('pg-list-tools');
    await tools.getByRole('link', { name: /^hostile__show_hostile/ }).click();
    const url = ui.url();
    await ui.getByTestId('run-tool').click();
    await expect(ui.getByTestId('call-status')).toHaveText('ok');

    // The flood stops it; its call of the other member's tool was refused before anything was sent.
    await expect(ui.getByTestId('app-stopped')).toContainText('Stopped by Patchbay');
    await expect(ui.getByTestId('app-frame')).toHaveCount(0);
    expect(ui.url()).toBe(url);
    await expect(ui.getByRole('heading', { level: 1, name: 'Playground of profile duo' })).toBeVisible();

    // The rest of the playground still works.
    await tools.getByRole('link', { name: /^other__show_other/ }).click();
    await ui.getByTestId('run-tool').click();
    await expect(ui.getByTestId('call-result')).toContainText('other shown');
    await expectAccessible(ui, 'playground after a hostile app');

    // In the inspector: the person's two calls, and no call of show_other made by an app.
    await ui.getByTestId('open-in-inspector').click();
    await expect(ui.getByTestId('row-target').filter({ hasText: 'show_other' })).toHaveCount(1);
    await expect(ui.getByTestId('row-target').filter({ hasText: 'show_hostile' })).toHaveCount(1);
    await expect(ui.getByTestId('row-app')).toHaveCount(0);
  });

  test('an app that loops forever leaves the page working, and Stop app ends it', async ({ ui, engine }) => {
    test.setTimeout(120_000);
    await ui.goto(`${engine.url}/ui/#/servers/looper/playground`);
    const tools = ui.getByTestId('pg-list-tools');
    await tools.getByRole('link', { name: /^Show looper/ }).click();
    await ui.getByTestId('run-tool').click();
    await expect(ui.getByTestId('app-frame')).toBeVisible();
    // Initialized (ui/initialize answered): from here the app's script spins (test/fixtures/app-server.mjs, --hostile loop).
    await expect(ui.getByTestId('app-host')).toHaveAttribute('data-app-state', 'initialized');
    // The page answers while the app's frame spins (in a process of its own: app-sandbox-url.ts):
    // its script runs, and Stop app removes the frame. (In the page's own script: Playwright's
    // input actions wait on every frame of the page, the spinning one included.)
    expect(await ui.evaluate(() => document.title)).toContain('Patchbay');
    await ui.evaluate(() => (document.querySelector('[data-testid=app-stop]') as HTMLButtonElement).click());
    await expect(ui.getByTestId('app-frame')).toHaveCount(0);
    await expect(ui.getByTestId('app-stopped')).toBeVisible();
    // The rest of the playground works as before.
    await ui.getByTestId('pg-list-tools').getByRole('link', { name: /^ui_capability/ }).click();
    await ui.getByTestId('run-tool').click();
    await expect(ui.getByTestId('call-result')).toContainText('io.modelcontextprotocol/ui');
    await expectAccessible(ui, 'playground with a stopped app');
  });
});
