// Settings → Client tokens (issue 17): exported clients are listed (never their token), Revoke
// cuts off that client only, and the Sessions list names a client by the token it came with.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { connectClient } from './helpers/mcp-traffic.js';
import { everythingEntry, expect, expectAccessible, test, type Engine } from './fixtures.js';
import { SessionsPage } from './pages/sessions-page.js';
import { SettingsPage } from './pages/settings-page.js';

test.use({ engineConfig: { mcpServers: { fx: everythingEntry() } } });

/** Exports a client through the API, as the Clients screen does; returns the token written into its file. */
async function exportClient(engine: Engine, client: string, file: string): Promise<string> {
  const res = await fetch(`${engine.url}/api/call/clients.export`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await engine.token()}` },
    body: JSON.stringify({ client }),
  });
  expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
  const match = /"Bearer (pbc_[A-Za-z0-9_-]{43})"/.exec(await readFile(file, 'utf8'));
  if (!match) throw new Error(`no client token in ${file}`);
  return match[1]!;
}

async function initializeStatus(engine: Engine, token: string): Promise<number> {
  const res = await fetch(`${engine.url}/mcp/fx`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }),
  });
  await res.body?.cancel();
  return res.status;
}

test('lists client tokens without their values; Revoke cuts off that client only', async ({ ui, engine }) => {
  // The fixture's HOME and XDG_CONFIG_HOME are the data dir.
  const cursor = await exportClient(engine, 'cursor', path.join(engine.dataDir, '.cursor', 'mcp.json'));
  const vscode = await exportClient(engine, 'vscode', path.join(engine.dataDir, '.config', 'Code', 'User', 'mcp.json'));

  const settings = new SettingsPage(ui);
  await settings.open();
  const table = ui.getByTestId('client-tokens-table');
  await expect(table.getByTestId('client-token-row')).toHaveCount(2);
  await expect(table.getByRole('row', { name: /Cursor/ })).toContainText('.cursor/mcp.json');
  await expect(table.getByRole('row', { name: /VS Code/ })).toContainText('Code/User/mcp.json');
  for (const token of [cursor, vscode]) await expect(ui.locator('body')).not.toContainText(token.slice(4, 20));
  await expectAccessible(ui, 'settings with client tokens');

  const row = table.getByRole('row', { name: /Cursor/ });
  await row.getByRole('button', { name: 'Revoke the token of Cursor' }).click();
  await row.getByTestId('revoke-client-token-confirm').click();
  await expect(ui.getByText('Revoked the client token of Cursor')).toBeVisible();
  // Revoked tokens are hidden unless asked for.
  await expect(table.getByTestId('client-token-row')).toHaveCount(1);
  await ui.getByLabel(/Show revoked tokens \(1\)/).check();
  await expect(table.getByRole('row', { name: /Cursor/ }).getByTestId('client-token-revoked')).toBeVisible();

  expect(await initializeStatus(engine, cursor)).toBe(401);
  expect(await initializeStatus(engine, vscode)).toBe(200);
  expect(await initializeStatus(engine, await engine.token())).toBe(200);
});

test('the Sessions list says which client token a session came with', async ({ ui, engine }) => {
  const token = await exportClient(engine, 'cursor', path.join(engine.dataDir, '.cursor', 'mcp.json'));
  const client = await connectClient(`${engine.url}/mcp/fx`, token, 'some-editor');
  try {
    const sessions = new SessionsPage(ui);
    await sessions.open();
    const row = ui.getByTestId('session-row').filter({ hasText: 'some-editor' });
    await expect(row.getByTestId('session-principal')).toHaveText('via token: Cursor');
  } finally {
    await client.close();
  }
});
