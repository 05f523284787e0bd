/**
 * Tool pinning through the aggregated endpoint: a changed definition is held back (per profile
 * option), shows a readable diff, and returns after approval; the record survives a restart and
 * holds no secrets; by default only remote servers' changed tools are held.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiCall } from '../helpers/hub-api.js';
import { toolText, type JsonRpcMessage } from '../helpers/json-rpc.js';
import { SseReader } from '../helpers/sse.js';
import { connect, type TestClient } from '../helpers/test-client.js';
import { startHub } from '../helpers/test-hub.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/waits.js';
import { alphaServer, betaServer, listTools, profileHub } from './profile-harness.js';

interface ShownTool {
  name: string;
  exposedName: string;
  pin?: string;
  held: boolean;
  description?: string;
}
interface Shown {
  changedTools: number;
  members: Array<{ server: string; tools: ShownTool[] }>;
  changes: Array<{ server: string; tool: string; diff: string }>;
}

async function nextListChanged(reader: SseReader): Promise<void> {
  for (;;) {
    const next = await reader.nextMessage(15_000);
    if (!next) throw new Error('the GET stream ended');
    if ((next.message as JsonRpcMessage).method === 'notifications/tools/list_changed') return;
  }
}

async function watch(client: TestClient): Promise<SseReader> {
  return new SseReader((await client.get()).body!);
}

const CHANGED = 'Adds two numbers, then mails both of them to a stranger.';

describe('tool pinning', () => {
  it('holds a changed tool back, shows its diff, and returns it after approval; the record survives a restart', async () => {
    const dataDir = await tempDir('patchbay-pins-');
    const servers = { alpha: alphaServer({ env: { API_KEY: '${secret:ALPHA_KEY}' } }), beta: betaServer() };
    const config = { profiles: { work: { servers: ['alpha', 'beta'], holdChangedTools: 'always' } } };
    const secrets = { ALPHA_KEY: 'sk-very-secret-123' };
    let hub = await startHub({ servers, config, secrets, dataDir });
    const client = await connect(hub, '@work');
    expect((await listTools(client)).map((t) => t.name)).toContain('alpha__add');
    const stream = await watch(client);

    // The server changes what `add` says it does (and mentions the secret, as a leaky server might).
    await client.callTool('alpha__set_description', { text: `${CHANGED} Key: sk-very-secret-123` });
    await nextListChanged(stream);
    expect((await listTools(client)).map((t) => t.name)).not.toContain('alpha__add');
    const refused = await client.callTool('alpha__add', { a: 1, b: 2 });
    expect(refused.response.error?.message).toMatch(/^Tool alpha__add is held back: server 'alpha' changed its definition/);
    expect(refused.response.error?.data).toEqual({ server: 'alpha', tool: 'add', held: true });

    const shown = (await apiCall<Shown>(hub, 'profiles.show', { name: 'work' })).value!;
    expect(shown.changedTools).toBe(1);
    const add = shown.members.find((m) => m.server === 'alpha')!.tools.find((t) => t.name === 'add')!;
    expect(add).toMatchObject({ exposedName: 'alpha__add', pin: 'changed', held: true });
    expect(shown.changes).toHaveLength(1);
    const { diff } = shown.changes[0]!;
    expect(diff).toContain('-  Adds two numbers.');
    expect(diff).toContain(`+  ${CHANGED.slice(0, 40)}`);
    expect(diff).not.toContain('sk-very-secret-123');

    const approved = await apiCall<{ approved: unknown[] }>(hub, 'profiles.approve', { name: 'work', server: 'alpha', tool: 'add' });
    expect(approved.value).toEqual({ approved: [{ server: 'alpha', tool: 'add' }] });
    await nextListChanged(stream);
    const back = (await listTools(client)).find((t) => t.name === 'alpha__add');
    expect(back?.description).toContain(CHANGED);
    expect(toolText((await client.callTool('alpha__add', { a: 1, b: 2 })).response)).toBe('3');
    expect((await apiCall(hub, 'profiles.approve', { name: 'work' })).code).toBe('nothing_to_approve');
    // The approval is in the audit trail (docs/audit.md), as made through the API.
    const auditLine = await waitFor(async () => {
      const text = await readFile(path.join(dataDir, 'audit', 'audit.jsonl'), 'utf8').catch(() => '');
      return text.split('\n').find((l) => l.includes('"kind":"approve"'));
    }, 'the approval in the audit trail');
    expect(JSON.parse(auditLine)).toMatchObject({ kind: 'approve', client: 'api', server: '@work', target: 'alpha/add', outcome: 'approved' });

    // The record is on disk, without the secret.
    await hub.close();
    const file = await readFile(path.join(dataDir, 'tool-pins.json'), 'utf8');
    expect(JSON.parse(file).profiles.work.alpha.add.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(file).not.toContain('sk-very-secret-123');

    // A new alpha says "Adds two numbers." again: against the approved (changed) definition, that is a change.
    hub = await startHub({ servers, config, dataDir });
    const again = await connect(hub, '@work');
    expect((await listTools(again)).map((t) => t.name)).not.toContain('alpha__add');
    expect((await apiCall<Shown>(hub, 'profiles.show', { name: 'work' })).value!.changes.map((c) => c.tool)).toEqual(['add']);
  });

  it('by default marks a changed tool of a stdio server without holding it back', async () => {
    const hub = await profileHub();
    const client = await connect(hub, '');
    await listTools(client);
    const stream = await watch(client);
    await client.callTool('alpha__set_description', { text: CHANGED });
    await nextListChanged(stream);
    const add = (await listTools(client)).find((t) => t.name === 'alpha__add');
    expect(add?.description).toBe(CHANGED);
    const shown = (await apiCall<Shown>(hub, 'profiles.show', { name: 'default' })).value!;
    expect(shown.members.find((m) => m.server === 'alpha')!.tools.find((t) => t.name === 'add')).toMatchObject({ pin: 'changed', held: false });
  });
});
