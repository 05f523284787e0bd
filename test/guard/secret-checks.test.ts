/**
 * Issue 25, secret checks on tool traffic (docs/secret-checks.md), through a real hub and real
 * stdio servers (the dual-era fixture: `echo` returns its argument, `env` a variable of its own
 * environment), in both protocol eras:
 * - a stored secret sent in arguments plain, base64-encoded (inside a longer base64 text) or
 *   URL-encoded is warned (the call passes; the session's timeline, the audit trail and the UI's
 *   event say which secret and where), masked (the server gets `[secret:<name>]`) or blocked (the
 *   client gets an error naming the rule and where, never the value, and nothing is sent);
 * - an answer that carries one likewise; credential shapes (a GitHub token) are found by rule;
 * - ordinary traffic is not flagged.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import { dataPaths } from '../../src/main/core/home/paths.js';
import { base64Forms, SecretFinder } from '../../src/main/core/guard/secret-finder.js';
import { apiCall } from '../helpers/hub-api.js';
import { toolText } from '../helpers/json-rpc.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { connect } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { waitFor } from '../helpers/waits.js';

const SECRET = 'pb-test-secret-9f8e7d6c5b4a';
/** A value URL-encoding changes. */
const SPECIAL = 'Tok/en+with=special&chars-42';
const GITHUB_TOKEN = `ghp_${'A1b2C3d4E5f6G7h8I9j0'.repeat(2).slice(0, 36)}`;
const dualEra = (mode?: string, env: Record<string, string> = {}) => ({
  command: process.execPath,
  args: [path.join(FIXTURES_DIR, 'dual-era-server.mjs'), '--stdio'],
  env,
  ...(mode ? { secretCheck: mode } : {}),
});
const b64 = (text: string): string => Buffer.from(text).toString('base64');

async function timelineNotices(hub: TestHub, server: string): Promise<string[]> {
  const r = await apiCall<{ events: Array<{ kind: string; text?: string; server: string }> }>(hub, 'inspector.events.list', { server });
  return (r.value?.events ?? []).filter((e) => e.kind === 'lifecycle' && e.text?.startsWith('secret check')).map((e) => e.text!);
}

interface AuditRow {
  kind: string;
  client: string;
  server: string;
  method?: string;
  target?: string;
  outcome: string;
}

async function auditLines(hub: TestHub): Promise<AuditRow[]> {
  const text = await readFile(path.join(dataPaths(hub.dataDir).auditDir, 'audit.jsonl'), 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as AuditRow);
}

async function auditPolicy(hub: TestHub): Promise<AuditRow[]> {
  return (await auditLines(hub)).filter((l) => l.kind === 'policy');
}

/** The clients the audit trail names for the calls of `target`, and for the policy lines about them. */
async function auditClients(hub: TestHub, target: string): Promise<{ calls: string[]; policy: string[] } | undefined> {
  const lines = (await auditLines(hub)).filter((l) => l.target === target);
  const calls = lines.filter((l) => l.kind === 'call').map((l) => l.client);
  const policy = lines.filter((l) => l.kind === 'policy').map((l) => l.client);
  return calls.length > 0 && policy.length > 0 ? { calls, policy } : undefined;
}

describe('the secret finder', () => {
  it('finds a stored value as written, base64 at any alignment and URL-encoded, and credential shapes, and masks them', async () => {
    const finder = new SecretFinder();
    finder.setKnown([{ label: 'API_KEY', value: SECRET }, { label: 'PASS', value: SPECIAL }]);
    for (const prefix of ['', 'x', 'xy', 'xyz']) {
      const embedded = b64(`${prefix}Authorization: ${SECRET} and more`);
      expect((await finder.find({ blob: embedded }, 'arguments')).map((f) => [f.rule, f.label, f.where, f.encoding])).toContainEqual(['stored-secret', 'API_KEY', 'arguments.blob', 'base64']);
    }
    expect(base64Forms(SECRET).length).toBeGreaterThanOrEqual(3);
    expect(await finder.find({ q: `https://x.example/?k=${encodeURIComponent(SPECIAL)}&z=1` }, 'arguments')).toEqual([expect.objectContaining({ label: 'PASS', encoding: 'url', where: 'arguments.q' })]);
    expect(await finder.find({ list: ['a', { deep: `token ${GITHUB_TOKEN}` }] }, 'arguments')).toContainEqual(expect.objectContaining({ rule: 'github', where: 'arguments.list[1].deep' }));
    const masked = await finder.mask({ text: `key=${SECRET}; gh=${GITHUB_TOKEN}` }, 'arguments');
    expect(masked.value).toEqual({ text: 'key=[secret:API_KEY]; gh=[secret:github]' });
    // Each family of credential the rules know passes the cheap pre-check (it must never hide one).
    for (const sample of [GITHUB_TOKEN, 'AKIAZ7QW3RT5YU8IO2PL', 'xoxb-1234567890-1234567890123-abcdefghijklmnopqrstuvwx', 'sk-ant-api03-abc', 'npm_abc', 'glpat-abc', '-----BEGIN RSA PRIVATE KEY-----', 'postgres://u:p4ss@db/x', 'AWS_SECRET_ACCESS_KEY=x', 'sk_live_abc', 'hf_abc', 'dckr_pat_x', 'tskey-auth-x']) {
      expect(finder.mayContain(JSON.stringify({ text: `see ${sample}` })), sample).toBe(true);
    }
    // …and ordinary text does not.
    expect(finder.mayContain(JSON.stringify({ path: '/home/user/task-list.md', desk: 'desk-top', loops_total: 3, text: 'the quick brown fox' }))).toBe(false);
    // Ordinary text: nothing.
    expect(await finder.find({ path: '/home/user/projects/readme.md', query: 'SELECT * FROM issues WHERE id = 42', n: 3, b: b64('hello world, nothing to see') }, 'arguments')).toEqual([]);
  });
});

describe('secret checks through the hub', () => {
  it('warns by default: the call passes, and the timeline, the audit trail and the UI say which secret and where', async () => {
    const hub = await startHub({ servers: { fx: dualEra() }, secrets: { API_KEY: SECRET } });
    const client = await connect(hub, 'fx');
    expect(await client.tool('echo', { text: `sending ${SECRET}` })).toBe(`sending ${SECRET}`);
    const notices = await waitFor(async () => ((await timelineNotices(hub, 'fx')).length >= 2 ? timelineNotices(hub, 'fx') : undefined), 'two secret-check lines in the timeline');
    expect(notices).toEqual([
      'secret check: tools/call request warned — secret API_KEY at arguments.text',
      'secret check: tools/call answer warned — secret API_KEY at result.content[0].text',
    ]);
    const policy = await waitFor(async () => ((await auditPolicy(hub)).length >= 2 ? auditPolicy(hub) : undefined), 'policy lines in the audit trail');
    expect(policy).toEqual([
      expect.objectContaining({ server: 'fx', target: 'echo', outcome: 'secret warned: stored secret API_KEY at arguments.text' }),
      expect.objectContaining({ server: 'fx', target: 'echo', outcome: 'secret warned: stored secret API_KEY at result.content[0].text' }),
    ]);
    // Never the value: not in the audit file, not in what the timeline shows.
    expect(JSON.stringify(policy) + notices.join()).not.toContain(SECRET);
    // A finding names its client as the call's own line does, so the two read together.
    const named = await waitFor(() => auditClients(hub, 'echo'), 'the call line and its policy lines');
    expect(named.policy).toEqual([named.calls[0], named.calls[0]]);
    expect(named.calls[0]).toMatch(/^hub-token:/);
    // Ordinary calls are not flagged: after them, one more call with the secret, and once its two
    // lines are there, nothing else was added (checks run in the order the messages went).
    await client.tool('echo', { text: 'hello, nothing secret here: /tmp/a.txt' });
    await client.tool('whoami');
    await client.tool('echo', { text: `again ${SECRET}` });
    const after = await waitFor(async () => ((await timelineNotices(hub, 'fx')).length >= 4 ? timelineNotices(hub, 'fx') : undefined), 'the last call\'s two lines');
    expect(after.slice(2)).toEqual(notices);
  }, 60_000);

  it('masks: the server gets [secret:NAME] for the plain, base64 and URL-encoded forms, and answers are masked too', async () => {
    const hub = await startHub({ servers: { fx: dualEra('mask', { LEAKY: `\${secret:API_KEY}` }) }, secrets: { API_KEY: SECRET, PASS: SPECIAL } });
    const client = await connect(hub, 'fx');
    expect(await client.tool('echo', { text: `plain ${SECRET}` })).toBe('plain [secret:API_KEY]');
    expect(await client.tool('echo', { text: b64(`Bearer ${SECRET}`) })).toBe('[secret:API_KEY]');
    expect(await client.tool('echo', { text: `?p=${encodeURIComponent(SPECIAL)}` })).toBe('[secret:PASS]');
    expect(await client.tool('echo', { text: `gh ${GITHUB_TOKEN}` })).toBe('gh [secret:github]');
    // The answer: the server reads the secret from its own environment and returns it.
    expect(await client.tool('env', { name: 'LEAKY' })).toBe('[secret:API_KEY]');
    // Messages keep their order while checks run: a burst of calls answers in order, each its own.
    const answers = await Promise.all([1, 2, 3, 4, 5].map((i) => client.tool('echo', { text: i % 2 ? `n${i} ${SECRET}` : `n${i}` })));
    expect(answers).toEqual(['n1 [secret:API_KEY]', 'n2', 'n3 [secret:API_KEY]', 'n4', 'n5 [secret:API_KEY]']);
  }, 60_000);

  it('blocks in both eras: nothing is sent, the error names the rule and where, never the secret', async () => {
    const hub = await startHub({ servers: { fx: dualEra('block', { LEAKY: `\${secret:API_KEY}` }) }, secrets: { API_KEY: SECRET } });
    const client = await connect(hub, 'fx');
    const blocked = await client.callTool('echo', { text: b64(`x${SECRET}`) });
    expect(blocked.response.error).toMatchObject({ code: -32001 });
    expect(blocked.response.error!.message).toBe(`Patchbay blocked this request to server 'fx': arguments.text carries a value of Patchbay's secret store, base64-encoded (rule stored-secret). Nothing was sent. The server's secret check is set to "block".`);
    const answer = await client.callTool('env', { name: 'LEAKY' });
    expect(answer.response.error!.message).toBe(`Patchbay withheld server 'fx''s answer: result.content[0].text carries a value of Patchbay's secret store (rule stored-secret). The server's secret check is set to "block".`);
    expect(await client.tool('echo', { text: 'fine' })).toBe('fine');

    // The 2026-07-28 era: the same check on the server's modern upstream.
    const modern = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new ModernHttpTransport(new URL(hub.mcpUrl('fx')), { requestInit: { headers: hub.authHeader() } }));
    try {
      await expect(modern.callTool({ name: 'echo', arguments: { text: `gh ${GITHUB_TOKEN}` } })).rejects.toThrow(/Patchbay blocked this request to server 'fx': arguments\.text carries a credential \(.*\) \(rule github\)/);
      await expect(modern.callTool({ name: 'env', arguments: { name: 'LEAKY' } })).rejects.toThrow(/Patchbay withheld server 'fx''s answer/);
      expect(toolText({ jsonrpc: '2.0', id: 0, result: await modern.callTool({ name: 'echo', arguments: { text: 'fine too' } }) })).toBe('fine too');
    } finally {
      await modern.close();
    }

    // The inspector says who answered a blocked request, in both eras: the hub, for its secret
    // check (note `policy`) — not the server, and not an era bridge.
    const blockedAnswers = async () => {
      const r = await apiCall<{ events: Array<{ origin?: string; note?: string; message?: unknown }> }>(hub, 'inspector.events.list', { server: 'fx' });
      return (r.value?.events ?? []).filter((e) => JSON.stringify(e.message ?? '').includes('Patchbay blocked this request'));
    };
    await waitFor(async () => (await blockedAnswers()).length >= 2, 'both blocked answers in the inspector');
    for (const e of await blockedAnswers()) expect(e).toMatchObject({ origin: 'hub', note: 'policy' });
    // The audit trail names the client of each finding as its calls are named, in both eras.
    const named = await waitFor(async () => {
      const c = await auditClients(hub, 'echo');
      return c !== undefined && new Set(c.calls).size >= 2 ? c : undefined;
    }, 'both clients\' lines in the audit trail');
    expect(new Set(named.policy)).toEqual(new Set(named.calls));
  }, 60_000);
});
