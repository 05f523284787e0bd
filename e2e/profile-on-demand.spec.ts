// On-demand tools in the Profiles screen (issue 26, part 2): the context cost both ways, the
// switch, a pinned tool, per-client choices written to config.json (at 900 × 700, axe-clean light
// and dark); then a real MCP client of
// /mcp/@pair sees only the pinned tool and the three meta-tools, finds a tool by words, calls it
// through patchbay__call_tool, and the call is in the inspector — the client's leg naming the
// meta-tool, the member's leg the tool's own call. A session opened with Cursor's client token,
// turned off for Cursor, gets every tool.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { connectClient } from './helpers/mcp-traffic.js';
import { expect, expectAccessible, REPO_ROOT, screenshot, test, type Engine } from './fixtures.js';
import { SessionsPage } from './pages/sessions-page.js';

const fixture = (name: string, env?: Record<string, string>): Record<string, unknown> => ({ command: process.execPath, args: [path.join(REPO_ROOT, 'test', 'fixtures', `${name}-server.mjs`)], ...(env ? { env } : {}) });

test.use({
  engineConfig: {
    // beta with 30 generated tools: the profile then has more than Cursor's 40.
    // app: an MCP App server whose board_refresh only its app may call (not in the model's list, not counted).
    mcpServers: { alpha: fixture('alpha'), beta: fixture('beta', { MINI_GENERATED_TOOLS: '30' }), app: fixture('app') },
    profiles: { pair: { description: 'alpha, beta and an app', servers: ['alpha', 'beta', 'app'] } },
  },
});

const META = ['patchbay__find_tools', 'patchbay__describe_tool', 'patchbay__call_tool'];

async function onDemandBlock(engine: Engine): Promise<unknown> {
  const config = JSON.parse(await readFile(engine.configFile, 'utf8')) as { profiles: Record<string, { onDemand?: unknown }> };
  return config.profiles.pair!.onDemand;
}

/** Exports Cursor through the API, as the Clients screen does; returns the client token written into its file. */
async function cursorToken(engine: Engine): Promise<string> {
  const res = await fetch(`${engine.url}/api/call/clients.export`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await engine.token()}` },
    body: JSON.stringify({ client: 'cursor' }),
  });
  expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
  const match = /"Bearer (pbc_[A-Za-z0-9_-]{43})"/.exec(await readFile(path.join(engine.dataDir, '.cursor', 'mcp.json'), 'utf8'));
  if (!match) throw new Error('no client token in the exported Cursor config');
  return match[1]!;
}

test('on-demand tools: both costs, the switch, a pin, per client; a real client finds and calls a tool, seen in the inspector', async ({ ui, engine }) => {
  test.setTimeout(120_000);
  await ui.setViewportSize({ width: 900, height: 700 });
  await ui.getByTestId('nav-profiles').click();
  await ui.getByTestId('profile-tab-pair').click();
  await expect(ui.getByTestId('profile-detail')).toBeVisible();

  // Both ways before anything is on: every tool, or the three meta-tools alone.
  const all = ui.getByTestId('cost-all');
  const onDemand = ui.getByTestId('cost-on-demand');
  await expect(all).toContainText('profile default');
  const allTools = Number((await ui.getByTestId('profile-total-tools').innerText()).replace(/,/g, ''));
  expect(allTools).toBeGreaterThan(40);
  await expect(ui.getByTestId('profile-warnings')).toContainText(`Cursor ${allTools} tools > 40`);
  await expect(ui.getByTestId('on-demand-tools')).toHaveText('3');
  const metaTokens = Number((await ui.getByTestId('on-demand-tokens').innerText()).replace(/,/g, ''));
  expect(metaTokens).toBeGreaterThan(0);
  expect(metaTokens).toBeLessThan(Number((await ui.getByTestId('profile-total-tokens').innerText()).replace(/,/g, '')));
  await expect(ui.getByTestId('on-demand-warnings-none')).toHaveText('within every known limit');
  // The app-only tool: marked, its tokens shown apart (not counted), no pin.
  await expect(ui.getByTestId('tool-app-board_refresh')).toContainText('app only');
  await expect(ui.getByTestId('tokens-app-board_refresh')).toHaveText(/^\(\d+\)$/);
  // No pin column until on-demand tools are in use.
  await expect(ui.getByTestId('pin-alpha-echo')).toHaveCount(0);

  // The switch: on for the profile, written as the smallest block.
  const toggle = ui.getByRole('switch', { name: /On-demand tools/ });
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await expect(toggle).toBeChecked();
  await expect(onDemand).toContainText('profile default');
  await expect(all).not.toContainText('profile default');
  await expect.poll(() => onDemandBlock(engine)).toBe(true);

  await expect(ui.getByTestId('tool-app-board_refresh').getByRole('checkbox', { name: /^Pin/ })).toHaveCount(0);
  // Pin alpha's echo: listed with on-demand tools too, counted in the on-demand row.
  await ui.getByTestId('pin-alpha-echo').check();
  await expect(ui.getByTestId('on-demand-tools')).toHaveText('4');
  await expect(ui.getByTestId('on-demand-pinned')).toContainText('alpha__echo');
  await expect.poll(() => onDemandBlock(engine)).toEqual({ pinned: ['alpha__echo'] });
  await ui.getByTestId('profile-totals').scrollIntoViewIfNeeded();
  await screenshot(ui, 'profile-on-demand');

  // Per client: Cursor off (all tools), written under clients.
  await ui.getByTestId('on-demand-clients').locator('summary').click();
  const cursor = ui.getByTestId('on-demand-client-select-cursor');
  await expect(cursor).toHaveValue('default');
  await expect(cursor.locator('option[value="default"]')).toHaveText('Profile default (on)');
  await cursor.selectOption('off');
  await expect(cursor).toHaveValue('off');
  await expect(ui.getByTestId('on-demand-clients').locator('summary')).toContainText('1 set');
  await expect.poll(() => onDemandBlock(engine)).toEqual({ pinned: ['alpha__echo'], clients: { cursor: false } });
  await expectAccessible(ui, 'profile with on-demand tools');

  // A real client of /mcp/@pair (the hub token: no client entry, so the profile's setting).
  const client = await connectClient(`${engine.url}/mcp/@pair`, await engine.token(), 'on-demand-client');
  const viaCursor = await connectClient(`${engine.url}/mcp/@pair`, await cursorToken(engine), 'cursor-client');
  try {
    const { tools } = await client.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['alpha__echo', ...META]);
    // Cursor is off: every tool the model may see (as many as the all-tools row counts), no meta-tools.
    const cursorTools = (await viaCursor.client.listTools()).tools.map((t) => t.name);
    expect(cursorTools).toHaveLength(allTools);
    expect(cursorTools).toContain('app__show_board');
    expect(cursorTools).not.toContain('app__board_refresh');
    expect(cursorTools).toContain('alpha__add');
    expect(cursorTools).not.toContain('patchbay__find_tools');

    const found = await client.client.callTool({ name: 'patchbay__find_tools', arguments: { query: 'add two numbers' } });
    const names = (found.structuredContent as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(names).toContain('alpha__add');
    const called = await client.client.callTool({ name: 'patchbay__call_tool', arguments: { name: 'alpha__add', arguments: { a: 2, b: 40 } } });
    expect(called.content).toEqual([{ type: 'text', text: '42' }]);
  } finally {
    await client.close();
    await viaCursor.close();
  }

  // The inspector: the client's session names the meta-tool; alpha's member session has the tool's own call.
  const sessions = new SessionsPage(ui);
  await sessions.open();
  await sessions.sessionLink('on-demand-client').click();
  await expect(sessions.rows('tools/call')).toHaveCount(2);
  await expect(ui.getByTestId('row-target').filter({ hasText: 'patchbay__call_tool' })).toHaveCount(1);
  await expect(ui.getByTestId('row-target').filter({ hasText: 'patchbay__find_tools' })).toHaveCount(1);
  const clientSession = new URL(ui.url()).hash;
  await sessions.open();
  await ui.getByTestId('show-members').check();
  // alpha's member session serving this client's session (its "its session" link points back to it).
  const member = ui
    .getByTestId('session-row')
    .filter({ has: ui.locator(`[data-testid="session-member-of"] a[href="${clientSession}"]`) })
    .filter({ hasText: 'alpha' });
  await expect(member).toHaveCount(1);
  await member.locator('a.row-title').click();
  await expect(sessions.rows('tools/call')).toHaveCount(1);
  await expect(ui.getByTestId('row-target').filter({ hasText: /^add$/ })).toHaveCount(1);
});
