// The inspector in both eras (issue 14 item 6), as a person sees it: a 2026-07-28 client's
// sessionless calls grouped into one session with an era badge, a multi-round-trip call as one
// row with its input round nested, both sides of a call the hub bridged to a legacy server in the
// detail pane, and each server's era on the Servers screen.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import path from 'node:path';
import { everythingEntry, expect, REPO_ROOT, test } from './fixtures.js';
import { SessionsPage } from './pages/sessions-page.js';

const DUAL_ERA = path.join(REPO_ROOT, 'test', 'fixtures', 'dual-era-server.mjs');

test.use({ engineConfig: { mcpServers: { legacy: everythingEntry(), modern: { command: process.execPath, args: [DUAL_ERA, '--stdio', '--era', 'modern'] } } } });

async function modernClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'e2e-modern', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { username: 'grace', email: 'grace@example.com' } }));
  client.onerror = () => {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

test('a modern client bridged to a legacy server: era badges, one row per round trip, both sides in the detail', async ({ ui, engine }) => {
  const client = await modernClient(`${engine.url}/mcp/legacy`, await engine.token());
  const direct = await modernClient(`${engine.url}/mcp/modern`, await engine.token());
  try {
    await client.callTool({ name: 'echo', arguments: { text: 'before' } });
    const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Your name?' } });
    expect(JSON.stringify(elicited.content)).toContain('grace');
    await direct.callTool({ name: 'echo', arguments: { text: 'modern' } });

    const sessions = new SessionsPage(ui);
    await sessions.open();
    // One entry for the modern client on the bridged server (the hub's own legacy session is marked apart).
    const row = ui.getByTestId('session-row').filter({ has: ui.getByTestId('session-server-era') });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('session-era')).toHaveAttribute('data-era', 'modern');
    await expect(row.getByTestId('session-server-era')).toContainText('bridged to 2025');
    await row.getByRole('link', { name: /e2e-modern/ }).click();
    await expect(sessions.timeline()).toBeVisible();
    await expect(ui.getByTestId('session-view-era')).toHaveAttribute('data-era', 'modern');

    // The round trip is one row, its input round nested under it; the retry adds no row of its own.
    const calls = sessions.rows('tools/call');
    await expect(calls).toHaveCount(2);
    const elicitation = calls.filter({ hasText: 'test_elicitation' });
    await expect(elicitation.getByTestId('row-rounds')).toHaveText('1 input round');
    await expect(elicitation.getByTestId('row-bridged')).toBeVisible();
    await expect(ui.getByTestId('row-input-round')).toHaveText('answered');

    await elicitation.click();
    await expect(ui.getByTestId('detail-status')).toHaveText('ok');
    await expect(ui.getByTestId('detail-era')).toHaveAttribute('data-era', 'modern');
    await expect(ui.getByTestId('detail-mcp-headers')).toContainText('mcp-name');
    await expect(ui.getByTestId('detail-mcp-headers')).toContainText('test_elicitation');
    await expect(ui.getByTestId('detail-round')).toHaveCount(1);
    await expect(ui.getByTestId('detail-round')).toContainText('elicitation/create');
    // The server's side: the legacy request, its elicitation request, the client's answer, the result.
    await expect(ui.getByTestId('detail-server-side')).toContainText('2025');
    await expect(ui.getByTestId('detail-server-message')).toHaveCount(4);
    await expect(ui.getByTestId('detail-server-message').nth(1)).toContainText('elicitation/create');

    // The Servers screen says which era each server speaks.
    await ui.getByTestId('nav-servers').click();
    await expect(ui.getByTestId('server-row-legacy').getByTestId('server-era')).toHaveAttribute('data-era', 'legacy');
    await expect(ui.getByTestId('server-row-modern').getByTestId('server-era')).toHaveAttribute('data-era', 'modern');
    await ui.getByTestId('server-row-modern').getByRole('link', { name: 'modern', exact: true }).click();
    await expect(ui.getByTestId('server-detail-era')).toHaveAttribute('data-era', 'modern');
    // Both facts in words (PROTOCOL Q11): only a 2026-07-28 client has reached it, so only that
    // era has been asked; the 2025 one waits for a 2025 client.
    await expect(ui.getByTestId('server-detail-era-facts')).toContainText('2026-07-28 (sessionless): yes: it answered a server/discover request');
    await expect(ui.getByTestId('server-detail-era-facts')).toContainText('2025 (initialize, sessions): not asked yet');
  } finally {
    await client.close().catch(() => undefined);
    await direct.close().catch(() => undefined);
  }
});
