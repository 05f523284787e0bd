/**
 * A profile's inventory (`profiles.show`, the Profiles screen's numbers), issue 28 items 3 and 13:
 * - it counts what the profile offers the fullest client — one with sampling, elicitation and
 *   roots, as its playground is — even after a plainer client was the last to list the members
 *   (server-everything offers some tools only to such clients), and that renders MCP Apps (an App
 *   server may offer its app tools only to hosts that declare the extension);
 * - a member that failed to start is not started again on every look at the profile.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FULL_CLIENT_CAPABILITIES } from '../../src/shared/protocol.js';
import { apiCall } from '../helpers/hub-api.js';
import { REPO_ROOT } from '../helpers/repo-paths.js';
import { connect } from '../helpers/test-client.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/waits.js';
import { alphaServer, listTools, profileHub } from './profile-harness.js';

const SERVER_EVERYTHING = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

interface Shown {
  totals: { tools: number };
  members: Array<{ server: string; reach: string; tools: Array<{ exposedName: string; appOnly?: boolean }> }>;
}

describe('profile inventory', () => {
  it('counts the tools a client with sampling, elicitation and roots is offered, whoever listed last', async () => {
    const hub = await profileHub({ ev: { servers: ['npm-everything'] } }, { servers: { 'npm-everything': { command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] } } });
    // A plain client lists last: the members' latest lists are the short ones.
    const full = (await listTools(await connect(hub, '@ev', { capabilities: { ...FULL_CLIENT_CAPABILITIES } }))).map((t) => t.name);
    const plain = (await listTools(await connect(hub, '@ev'))).map((t) => t.name);
    expect(full.length).toBeGreaterThan(plain.length);

    const shown = (await apiCall<Shown>(hub, 'profiles.show', { name: 'ev' })).value!;
    expect(shown.totals.tools).toBe(full.length);
    expect(shown.members[0]!.tools.map((t) => t.exposedName).sort()).toEqual([...full].sort());
  });

  it('counts the app tools a server offers only to hosts that render MCP Apps, as the playground lists them', async () => {
    const gated = { command: process.execPath, args: [path.join(REPO_ROOT, 'test', 'fixtures', 'app-server.mjs'), '--era', 'legacy', '--ui-gated'] };
    const hub = await profileHub({ apps: { servers: ['gated'] } }, { servers: { gated } });
    const plain = (await listTools(await connect(hub, '@apps'))).map((t) => t.name);
    expect(plain).not.toContain('gated__open_board_app');
    const shown = (await apiCall<Shown>(hub, 'profiles.show', { name: 'apps' })).value!;
    // What the playground (a full client, apps included) is offered: the gated tool too.
    const full = (await listTools(await connect(hub, '@apps', { capabilities: { ...FULL_CLIENT_CAPABILITIES } }))).map((t) => t.name);
    expect(full).toContain('gated__open_board_app');
    // The app-only tool is in the inventory (marked), not in a model's list.
    expect(shown.members[0]!.tools.filter((t) => !t.appOnly).map((t) => t.exposedName).sort()).toEqual(full.sort());
    expect(shown.totals.tools).toBe(full.length);
  });

  it('does not start a member that failed again on every look; "ask again" does', async () => {
    const starts = path.join(await tempDir('patchbay-inventory-'), 'starts');
    // No warm spares: a spare started in the background would be counted as a start the inventory made.
    const broken = { command: process.execPath, args: ['-e', `require('node:fs').appendFileSync(${JSON.stringify(starts)}, 'x'); process.exit(3)`], warmSpare: false };
    const hub = await profileHub({ mixed: { servers: ['broken', 'alpha'] } }, { servers: { alpha: alphaServer(), broken } });
    const count = async (): Promise<number> => (await readFile(starts, 'utf8').catch(() => '')).length;

    const first = (await apiCall<Shown>(hub, 'profiles.show', { name: 'mixed' })).value!;
    expect(first.members.find((m) => m.server === 'broken')!.reach).toBe('down');
    const afterFirst = await count();
    expect(afterFirst).toBeGreaterThan(0);

    const second = (await apiCall<Shown>(hub, 'profiles.show', { name: 'mixed' })).value!;
    expect(second.members.find((m) => m.server === 'broken')!.reach).toBe('down');
    expect(second.totals.tools).toBe(first.totals.tools);
    expect(await count()).toBe(afterFirst);

    await apiCall<Shown>(hub, 'profiles.show', { name: 'mixed', refresh: true });
    // The child writes its mark as it starts: wait for it rather than race it.
    await waitFor(async () => ((await count()) > afterFirst ? true : undefined), 'the member started again by "ask again"');
  });
});
