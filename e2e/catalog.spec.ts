// The catalog in the UI (issue 24): Servers → Add from catalog against a real `patchbay serve`
// whose only registry is the fixture registry started here (PATCHBAY_REGISTRY_URL; nothing reaches
// the internet). Search with a typo, the detail, an install with a secret and a default (the
// server's tools then wait for approval), cancel, a pypi entry on a machine without uvx, registry
// faults, a refused plan, a version the registry fails to give, the profiles out of reach for a
// read, the palette, outdated and update; axe light and dark; screenshots at 1280 × 800 and the
// screen checked at 900 × 700.
import { mkdir, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { test as base, everythingEntry, expect, expectAccessible, NO_REGISTRY, REPO_ROOT, screenshot, type Engine } from './fixtures.js';

interface FixtureRegistry {
  url: string;
  close(): Promise<void>;
  setFault(mode: 'bad-json' | 'wrong-schema' | 'status-500' | 'slow' | 'huge' | null): void;
}

const FIXTURE_REGISTRY = path.join(REPO_ROOT, 'test', 'fixtures', 'registry', 'fixture-registry.mjs');
const EVERYTHING = 'io.github.patchbay-test/everything';
const SECRET = 'sk-e2e-catalog-7d1f';

const test = base.extend<{ registry: FixtureRegistry; enginePath: string | undefined }>({
  // Playwright reads a fixture's dependencies from this pattern: none.
  // eslint-disable-next-line no-empty-pattern
  registry: async ({}, use) => {
    // A JS fixture shared with the engine's tests: imported by URL, typed here.
    const mod = (await import(pathToFileURL(FIXTURE_REGISTRY).href)) as { startFixtureRegistry(): Promise<FixtureRegistry> };
    const registry = await mod.startFixtureRegistry();
    await use(registry);
    await registry.close();
  },
  enginePath: [undefined, { option: true }],
  engineEnv: async ({ registry, enginePath }, use) => {
    await use({ PATCHBAY_REGISTRY_URL: registry.url, ...(enginePath ? { PATH: enginePath } : {}) });
  },
});

/** One API call, as the UI's own calls make it (a change made elsewhere, as far as the page knows). */
async function api<T>(engine: Engine, name: string, input: unknown): Promise<T> {
  const res = await fetch(`${engine.url}/api/call/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await engine.token()}` },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as { ok: boolean; value: T };
  expect(body.ok, `${name}: ${JSON.stringify(body)}`).toBe(true);
  return body.value;
}

/** What the API says is configured (`servers.overview`). */
async function serverIds(engine: Engine): Promise<string[]> {
  return (await api<Array<{ id: string }>>(engine, 'servers.overview', {})).map((s) => s.id);
}

async function openCatalog(ui: Page): Promise<void> {
  await ui.getByTestId('nav-servers').click();
  await ui.getByTestId('add-from-catalog').click();
  await expect(ui.getByRole('heading', { level: 1, name: 'Add from catalog' })).toBeVisible();
}

async function openEntry(ui: Page, query: string, name: string): Promise<void> {
  await ui.getByTestId('catalog-search').fill(query);
  const result = ui.locator(`[data-testid="catalog-result"][data-name="${name}"]`);
  await expect(result).toBeVisible();
  await result.getByRole('link').first().click();
  await expect(ui.getByTestId('catalog-detail')).toBeVisible();
}

/** Nothing wider than the window: the main area does not scroll sideways. */
async function fitsWidth(page: Page): Promise<boolean> {
  return page.locator('main').evaluate((m) => m.scrollWidth <= m.clientWidth + 1);
}

test('search with a typo, read the detail, install with a secret and a default; its tools wait for approval', async ({ ui, engine }) => {
  test.setTimeout(180_000);
  await openCatalog(ui);
  await expect(ui.getByTestId('catalog-registry').first()).toContainText(/servers · (updated|offline|snapshot)/);
  await expect(ui.getByTestId('catalog-result').first()).toBeVisible();
  await screenshot(ui, 'catalog-search');
  await expectAccessible(ui, 'catalog');

  // A typo still finds it; its trust signals are on the result.
  await openEntry(ui, 'everythng', EVERYTHING);
  const result = ui.locator(`[data-testid="catalog-result"][data-name="${EVERYTHING}"]`);
  await expect(result.getByTestId('catalog-namespace')).toContainText('GitHub: patchbay-test');
  await expect(result).toContainText('npm');
  await expect(result.getByRole('link', { name: /repository/ })).toHaveAttribute('href', 'https://github.com/modelcontextprotocol/servers');

  const detail = ui.getByTestId('catalog-detail');
  await expect(detail.getByTestId('catalog-detail-description')).toContainText('Exercises every feature of MCP');
  await expect(detail.getByTestId('catalog-version')).toHaveValue('2026.8.31');
  const key = detail.getByTestId('catalog-input-EVERYTHING_API_KEY');
  await expect(key).toHaveAttribute('type', 'password');
  await expect(detail.getByTestId('catalog-input-EVERYTHING_MODE')).toHaveValue('full');
  await expect(detail.getByTestId('catalog-preview')).toContainText('npx -y @modelcontextprotocol/server-everything@2026.8.31');
  // A required secret is still blank: no install yet.
  await expect(detail.getByTestId('catalog-missing')).toContainText('EVERYTHING_API_KEY');
  await expect(detail.getByTestId('catalog-install-button')).toBeDisabled();

  await key.fill(SECRET);
  await expect(detail.getByTestId('catalog-missing')).toHaveCount(0);
  await expect(detail.getByTestId('catalog-install-button')).toBeEnabled();
  // The plan shows references, never the value.
  await expect(detail.getByTestId('catalog-plan')).not.toContainText(SECRET);
  const serverId = await detail.getByTestId('catalog-server-id').inputValue();
  expect(serverId).not.toBe('');
  await screenshot(ui, 'catalog-detail');
  await expectAccessible(ui, 'catalog detail');
  // Sandboxed by default where this machine can (the test command installs bubblewrap). Unticked
  // here: in its sandbox npx would fetch the package from npm, and the tests reach only loopback;
  // outside it npx finds the one in this project's node_modules.
  const sandboxBox = detail.getByTestId('catalog-sandbox');
  if ((await detail.getByTestId('catalog-sandbox-hint').textContent())?.startsWith('Not available')) await expect(sandboxBox).not.toBeChecked();
  else await expect(sandboxBox).toBeChecked();
  await sandboxBox.uncheck();
  await expect(detail.getByTestId('catalog-plan')).toContainText('npx -y @modelcontextprotocol/server-everything@2026.8.31');

  await detail.getByTestId('catalog-install-button').click();
  await expect(ui).toHaveURL(new RegExp(`#/servers/${serverId}$`));
  await expect(ui.getByTestId('notice').filter({ hasText: `Installed ${serverId}` })).toBeVisible();
  await expect(ui.getByTestId('server-provenance')).toContainText('2026.8.31');

  // config.json: the secret is a reference, the version pinned.
  const config = await readFile(engine.configFile, 'utf8');
  expect(config).not.toContain(SECRET);
  const entry = (JSON.parse(config) as { mcpServers: Record<string, { args?: string[]; env?: Record<string, string>; catalog?: { version: string } }> }).mcpServers[serverId]!;
  expect(entry.env?.EVERYTHING_API_KEY).toMatch(/^\$\{secret:[^}]+\}$/);
  expect(entry.env?.EVERYTHING_MODE).toBe('full');
  expect(entry.catalog?.version).toBe('2026.8.31');

  // Its tools wait for approval, on its page, with the Profiles screen's diff and Approve.
  const pending = ui.getByTestId('pending-tools');
  await expect(pending).toBeVisible({ timeout: 90_000 });
  await expect(pending.getByText('waiting for approval').first()).toBeVisible();
  const echo = pending.getByTestId(`change-${serverId}-echo`);
  await expect(echo.getByRole('region', { name: 'Differences: approved against now' })).toContainText('echo');
  await screenshot(ui, 'catalog-installed');
  await expectAccessible(ui, 'installed server page');
  await echo.getByRole('button', { name: 'Approve' }).click();
  await expect(ui.getByTestId('notice').filter({ hasText: `Approved ${serverId}/echo` })).toBeVisible();
  await expect(echo).toHaveCount(0);
  await pending.getByRole('button', { name: 'Approve all' }).first().click();
  await expect(pending).toBeHidden();

  // Listed on the Servers screen; the catalog says it is installed.
  await ui.getByTestId('nav-servers').click();
  await expect(ui.getByTestId(`server-row-${serverId}`)).toBeVisible();
  await ui.getByTestId('add-from-catalog').click();
  await ui.getByTestId('catalog-search').fill('everything');
  await expect(ui.locator(`[data-testid="catalog-result"][data-name="${EVERYTHING}"]`).getByTestId('catalog-installed')).toContainText(`installed as ${serverId}`);
});

test('cancel midway writes nothing; at 900 × 700 nothing is cut', async ({ ui, engine }) => {
  test.setTimeout(120_000);
  await ui.setViewportSize({ width: 900, height: 700 });
  const before = await readFile(engine.configFile, 'utf8');
  await openCatalog(ui);
  await openEntry(ui, 'everything', EVERYTHING);
  const detail = ui.getByTestId('catalog-detail');
  await detail.getByTestId('catalog-input-EVERYTHING_API_KEY').fill(SECRET);
  await expect(detail.getByTestId('catalog-install-button')).toBeEnabled();
  // At the desktop window's minimum: the form, the command and Install are reachable, nothing sideways.
  await expect.poll(() => fitsWidth(ui)).toBe(true);
  await detail.getByTestId('catalog-install-button').scrollIntoViewIfNeeded();
  await expect(detail.getByTestId('catalog-install-button')).toBeInViewport();
  await expect(detail.getByTestId('catalog-preview')).toBeVisible();
  await screenshot(ui, 'catalog-narrow');

  // Escape in the form: back to the list, nothing written.
  await detail.getByTestId('catalog-input-EVERYTHING_API_KEY').press('Escape');
  await expect(ui).toHaveURL(/#\/servers\/catalog$/);
  await expect(ui.getByTestId('catalog-detail')).toHaveCount(0);
  // And Cancel, the same.
  await openEntry(ui, 'everything', EVERYTHING);
  await ui.getByTestId('catalog-input-EVERYTHING_API_KEY').fill(SECRET);
  await ui.getByTestId('catalog-cancel').click();
  await expect(ui).toHaveURL(/#\/servers\/catalog$/);
  expect(await serverIds(engine)).toEqual([]);
  expect(await readFile(engine.configFile, 'utf8')).toBe(before);
});

test('a registry that fails says so in the catalog; the Servers screen still works', async ({ ui, registry }) => {
  test.setTimeout(150_000);
  await openCatalog(ui);
  await expect(ui.getByTestId('catalog-result').first()).toBeVisible();
  // Each fault's message, in the engine's words (a slow registry is given up after the engine's 10 s).
  const faults = [['status-500', /answered 500/], ['bad-json', /not JSON/], ['huge', /larger than/], ['slow', /no answer within/]] as const;
  for (const [fault, words] of faults) {
    registry.setFault(fault);
    await ui.getByTestId('catalog-refresh').click();
    await expect(ui.getByTestId('catalog-registry-error')).toContainText(words, { timeout: 30_000 });
    await expect(ui.getByTestId('catalog-refresh')).toBeEnabled({ timeout: 30_000 });
    await expect(ui.getByTestId('catalog-registry').first()).toContainText('offline — last copy from');
  }
  // The last copy still answers.
  await expect(ui.getByTestId('catalog-result').first()).toBeVisible();
  await screenshot(ui, 'catalog-error');
  await expectAccessible(ui, 'catalog with a failing registry');
  await ui.getByTestId('nav-servers').click();
  await expect(ui.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();
  await expect(ui.getByTestId('servers-empty')).toBeVisible();
  await expect(ui.getByTestId('add-server')).toBeVisible();
});

test('the palette finds catalog entries and opens their detail', async ({ ui }) => {
  await ui.keyboard.press('Control+k');
  await ui.getByTestId('palette-input').fill('weather');
  const item = ui.getByTestId('palette-item').filter({ hasText: 'Catalog:' }).first();
  await expect(item).toBeVisible();
  await expectAccessible(ui, 'palette with catalog entries', '[data-testid="palette"]');
  await item.click();
  await expect(ui).toHaveURL(/#\/servers\/catalog\/io\.github\.patchbay-test%2Fremote-weather$/);
  const detail = ui.getByTestId('catalog-detail');
  await expect(detail).toBeVisible();
  // A remote: its URL variable with its default, its secret header as a password.
  await expect(detail.getByTestId('catalog-input-tenant')).toHaveValue('demo');
  await expect(detail.getByTestId('catalog-input-X-Api-Key')).toHaveAttribute('type', 'password');
  await expect(detail.getByTestId('catalog-preview')).toContainText('https://demo.weather.example/mcp');
});

test('an installed older version shows "update available"; Update… shows the diff and applies it', async ({ ui, engine }) => {
  test.setTimeout(180_000);
  await openCatalog(ui);
  await openEntry(ui, 'everything', EVERYTHING);
  const detail = ui.getByTestId('catalog-detail');
  await detail.getByTestId('catalog-version').selectOption('2026.1.0');
  await expect(detail.getByTestId('catalog-version')).toHaveValue('2026.1.0');
  await expect(detail.getByTestId('catalog-install')).toHaveAttribute('data-version', '2026.1.0');
  await detail.getByTestId('catalog-input-EVERYTHING_API_KEY').fill(SECRET);
  // The id shown is the plan's (derived from the name) once the plan for these values is in.
  await expect(detail.getByTestId('catalog-install-button')).toBeEnabled();
  await expect(detail.getByTestId('catalog-server-id')).not.toHaveValue('');
  const serverId = await detail.getByTestId('catalog-server-id').inputValue();
  await detail.getByTestId('catalog-install-button').click();
  await expect(ui).toHaveURL(new RegExp(`#/servers/${serverId}$`));
  await expect(ui.getByTestId('server-provenance')).toContainText('2026.1.0');
  await expect(ui.getByTestId('server-outdated')).toHaveText('update available: 2026.8.31');

  await ui.getByTestId('nav-servers').click();
  await expect(ui.getByTestId(`server-row-${serverId}`).getByTestId('server-outdated')).toHaveText('update available: 2026.8.31');
  await screenshot(ui, 'catalog-outdated');
  await ui.getByTestId(`server-row-${serverId}`).getByRole('link', { name: serverId, exact: true }).click();

  await ui.getByTestId('server-update').click();
  const drawer = ui.getByTestId('update-drawer');
  await expect(drawer.getByTestId('update-diff')).toContainText('2026.8.31');
  await expect(drawer.getByTestId('update-diff')).not.toContainText(SECRET);
  await screenshot(ui, 'catalog-update');
  await expectAccessible(ui, 'update drawer', '[data-testid="update-drawer"]');
  await drawer.getByTestId('update-apply').click();
  await expect(drawer).toHaveCount(0);
  await expect(ui.getByTestId('server-outdated')).toHaveCount(0);
  await expect(ui.getByTestId('server-provenance')).toContainText('2026.8.31');
  const config = JSON.parse(await readFile(engine.configFile, 'utf8')) as { mcpServers: Record<string, { catalog?: { version: string } }> };
  expect(config.mcpServers[serverId]?.catalog?.version).toBe('2026.8.31');
});

test('a plan that fails stops Install; a version that cannot be read says so in place of the form, with the way back', async ({ ui, registry }) => {
  test.setTimeout(120_000);
  await openCatalog(ui);
  await openEntry(ui, 'everything', EVERYTHING);
  const detail = ui.getByTestId('catalog-detail');
  await detail.getByTestId('catalog-input-EVERYTHING_API_KEY').fill(SECRET);
  await expect(detail.getByTestId('catalog-install-button')).toBeEnabled();
  // An id the engine refuses: its words under the command, and no Install on the last good plan.
  await detail.getByTestId('catalog-server-id').fill('not an id!');
  await expect(detail.getByTestId('catalog-plan')).toContainText("'not an id!' is not a server id");
  await expect(detail.getByTestId('catalog-install-button')).toBeDisabled();
  await detail.getByTestId('catalog-server-id').fill('everything-e2e');
  await expect(detail.getByTestId('catalog-install-button')).toBeEnabled();

  // The registry fails while another version is chosen: said where its form would be, no spinner left.
  registry.setFault('status-500');
  await detail.getByTestId('catalog-version').selectOption('2026.1.0');
  const failed = detail.getByTestId('catalog-version-error');
  await expect(failed).toContainText('Could not read version 2026.1.0: ');
  await expect(failed).toContainText('500');
  await expect(detail.getByText('Reading version 2026.1.0')).toHaveCount(0);
  await expectAccessible(ui, 'catalog detail, a version that could not be read');
  await failed.getByRole('button', { name: 'Back to version 2026.8.31' }).click();
  await expect(detail.getByTestId('catalog-version')).toHaveValue('2026.8.31');
  await expect(failed).toHaveCount(0);
  await expect(detail.getByTestId('catalog-install')).toHaveAttribute('data-version', '2026.8.31');
});

test.describe('when the profiles cannot be read', () => {
  test.use({ engineConfig: { mcpServers: { fx: everythingEntry({ catalog: { registry: NO_REGISTRY, name: EVERYTHING, version: '2026.8.31' } }) } } });

  test('the server page and the install form say so, naming what failed, until a read works', async ({ ui, engine }) => {
    test.setTimeout(120_000);
    // Mocked, because it cannot happen on demand here: the engine has no way to fail a profiles
    // read, so the browser's route stands in for an engine out of reach for one read of the list
    // (the bridge's own words), then back. Everything else is the real engine.
    await ui.route('**/api/call/profiles.list', (route) => route.abort('connectionrefused'), { times: 1 });
    await ui.goto(`${ui.url().split('#')[0]}#/servers/fx`);
    const pending = ui.getByTestId('pending-tools');
    await expect(pending.getByTestId('pending-tools-error')).toHaveText(/^Could not read the profiles: Cannot reach the Patchbay engine/);
    await expectAccessible(ui, 'server page, the profiles not read');

    // One profile's read fails: said with its name; the list's error goes with the next good read.
    let refusing = true;
    await ui.route('**/api/call/profiles.show', (route) => {
      if (refusing && (route.request().postDataJSON() as { name?: string }).name === 'extra') return route.abort('connectionrefused');
      return route.continue();
    });
    await api(engine, 'profiles.create', { name: 'extra', servers: ['fx'] });
    await expect(pending.getByTestId('pending-error-extra')).toHaveText(/^Could not read @extra: Cannot reach the Patchbay engine/);
    await expect(pending.getByTestId('pending-tools-error')).toHaveCount(0);
    // The next change reads it again: nothing waits, so nothing is shown.
    refusing = false;
    await api(engine, 'profiles.create', { name: 'third', servers: [] });
    await expect(pending).toBeHidden();

    // The install form's profile choice: the failure said, not a silent "None" alone.
    await ui.route('**/api/call/profiles.list', (route) => route.abort('connectionrefused'), { times: 1 });
    await ui.goto(`${ui.url().split('#')[0]}#/servers/catalog`);
    await openEntry(ui, 'everything', EVERYTHING);
    const form = ui.getByTestId('catalog-install');
    await expect(form.getByTestId('catalog-profiles-error')).toContainText('Could not read the profiles, so only the default one is offered: Cannot reach the Patchbay engine');
    await api(engine, 'profiles.create', { name: 'fourth', servers: [] });
    await expect(form.getByTestId('catalog-profiles-error')).toHaveCount(0);
    await expect(form.getByTestId('catalog-profile').getByRole('option')).toHaveCount(4);
    await expect(form.getByTestId('catalog-profile')).toContainText('@fourth');
  });
});

test.describe('on a machine without uvx', () => {
  // PATH holds node only: no uv, whatever this machine has installed.
  const bin = path.join(os.tmpdir(), `patchbay-e2e-no-uv-${process.pid}`);
  test.beforeAll(async () => {
    await mkdir(bin, { recursive: true });
    await symlink(process.execPath, path.join(bin, 'node')).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') throw e;
    });
  });
  test.afterAll(async () => rm(bin, { recursive: true, force: true }));
  test.use({ enginePath: bin });

  test('a pypi entry says which runtime to install, and offers no Install', async ({ ui, engine }) => {
    await openCatalog(ui);
    await openEntry(ui, 'chess', 'io.github.11hritik11/chess-mcp');
    const detail = ui.getByTestId('catalog-detail');
    // Said first, beside the way to run it, and again where Install would be; the command it would run is still shown.
    await expect(detail.getByTestId('catalog-runtime')).toContainText('uvx');
    await expect(detail.getByTestId('catalog-runtime-missing')).toContainText(/uv/);
    await expect(detail.getByTestId('catalog-preview')).toContainText('uvx');
    await expect(detail.getByTestId('catalog-install-button')).toHaveCount(0);
    await screenshot(ui, 'catalog-runtime-missing');
    expect(await serverIds(engine)).toEqual([]);
  });
});
