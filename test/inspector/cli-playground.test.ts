/**
 * `patchbay sessions` and `patchbay tail` with playground sessions in the hub: the sessions of
 * the UI's playground (here on a profile, `@pair`, and on a server) are hidden from `sessions`
 * unless `--playground` or `--all` asks for them, and marked when shown; `tail` marks their
 * exchanges. A real hub with two real stdio servers; the CLI runs in-process.
 */
import { describe, expect, it } from 'vitest';
import type { InspectorSession } from '../../src/shared/api/inspector-contract.js';
import type { PlaygroundOpened } from '../../src/shared/api/playground-contract.js';
import { runCli } from '../../src/main/cli/run-cli.js';
import { apiCall } from '../helpers/hub-api.js';
import { cli } from '../helpers/cli-io.js';
import { connect } from '../helpers/test-client.js';
import { startHub, type TestHub } from '../helpers/test-hub.js';
import { alphaServer, betaServer } from '../profiles/profile-harness.js';


async function run(hub: TestHub, args: string[]): Promise<{ out: string; err: string }> {
  const c = cli(hub.dataDir);
  expect(await runCli(args, c.io), `patchbay ${args.join(' ')}: ${c.err()}`).toBe(0);
  return { out: c.out(), err: c.err() };
}

async function call<T>(hub: TestHub, name: string, input: unknown): Promise<T> {
  const answer = await apiCall<T>(hub, name, input);
  if (!answer.ok) throw new Error(`${name}: ${answer.code} ${answer.message}`);
  return answer.value as T;
}

function rows(table: string): string[] {
  return table.trim().split('\n').slice(1);
}

describe('patchbay sessions / tail with playground sessions', () => {
  it('hides playground sessions from `sessions` unless --playground or --all, and profile member sessions unless --members or --all, marks them, and marks their exchanges in `tail`', async () => {
    const hub = await startHub({
      servers: { alpha: alphaServer(), beta: betaServer() },
      config: { profiles: { pair: { servers: ['alpha', 'beta'] } } },
    });
    const client = await connect(hub, 'alpha');
    await client.tool('echo', { text: 'from a client' });
    const onProfile = await call<PlaygroundOpened>(hub, 'playground.open', { server: '@pair' });
    const onServer = await call<PlaygroundOpened>(hub, 'playground.open', { server: 'beta' });
    const echoed = await call<{ status: string }>(hub, 'playground.request', { session: onProfile.session, method: 'tools/call', params: { name: 'alpha__echo', arguments: { text: 'x' } } });
    expect(echoed.status).toBe('ok');

    // By default: only the client's session, and a word about the hidden ones.
    const plain = await run(hub, ['sessions']);
    expect(rows(plain.out)).toHaveLength(1);
    expect(rows(plain.out)[0]).toMatch(/alpha\s+patchbay-hub-test 1\.0\.0\s+live\s/);
    expect(plain.out).not.toContain('playground');
    expect(plain.err).toContain('2 playground or replay sessions are hidden; --playground shows them');
    const plainJson = JSON.parse((await run(hub, ['sessions', '--json'])).out) as InspectorSession[];
    expect(plainJson.map((s) => s.server)).toEqual(['alpha']);

    // --playground shows them, marked; in JSON they carry transport.client "playground".
    const shown = await run(hub, ['sessions', '--playground']);
    expect(rows(shown.out)).toHaveLength(3);
    const profileRow = rows(shown.out).find((r) => r.startsWith(onProfile.inspectorSession!));
    expect(profileRow).toMatch(/^[0-9a-f]{16}\s+@pair\s+patchbay-playground \S+ \[playground\]\s+live\s/);
    expect(rows(shown.out).find((r) => r.startsWith(onServer.inspectorSession!))).toMatch(/\sbeta\s+patchbay-playground \S+ \[playground\]\s/);
    expect(rows(shown.out).filter((r) => r.includes('[playground]'))).toHaveLength(2);
    // The profile's sessions with its two members, on the playground session's behalf, stay hidden.
    expect(shown.err).toBe('patchbay: 2 profile member sessions are hidden; --members shows them\n');
    const json = JSON.parse((await run(hub, ['sessions', '--playground', '--json'])).out) as InspectorSession[];
    expect(json.filter((s) => s.transport.client === 'playground').map((s) => s.id).sort()).toEqual([onProfile.inspectorSession, onServer.inspectorSession].sort());
    // --members shows those, marked, each naming in JSON the profile and the session it served.
    const members = await run(hub, ['sessions', '--members', '--playground']);
    expect(rows(members.out).filter((r) => r.includes('[member of @pair]')).map((r) => r.split(/\s+/)[1]).sort()).toEqual(['alpha', 'beta']);
    const membersJson = JSON.parse((await run(hub, ['sessions', '--members', '--json'])).out) as InspectorSession[];
    expect(membersJson.filter((s) => s.profile).map((s) => s.profile)).toEqual([
      { id: '@pair', parentSession: onProfile.inspectorSession },
      { id: '@pair', parentSession: onProfile.inspectorSession },
    ]);
    // --all (past sessions too) includes them all.
    expect(rows((await run(hub, ['sessions', '--all'])).out)).toHaveLength(5);

    // A profile's sessions by its id: hidden, then shown.
    const byProfile = await run(hub, ['sessions', '--server', '@pair']);
    expect(byProfile.out).toBe('');
    expect(byProfile.err).toContain("no live sessions of '@pair'");
    expect(byProfile.err).toContain('1 playground or replay session is hidden');
    expect(rows((await run(hub, ['sessions', '--server', '@pair', '--playground'])).out)).toEqual([expect.stringMatching(/\[playground\]/)]);

    // Past --limit: what is shown, that more match, that some are hidden.
    const second = await connect(hub, 'beta');
    await second.tool('echo', { text: 'from a second client' });
    const limited = await run(hub, ['sessions', '--limit', '1']);
    expect(rows(limited.out)).toEqual([expect.stringMatching(/\sbeta\s+patchbay-hub-test 1\.0\.0\s/)]);
    expect(limited.err).toContain('showing 1; use --limit for more');
    expect(limited.err).toContain('some playground or replay sessions are hidden');

    // tail marks the playground's exchanges (it starts from the present: call until it printed).
    const tail = cli(hub.dataDir);
    const tailing = runCli(['tail', '--server', '@pair', '--count', '1'], tail.io);
    const tailJson = cli(hub.dataDir);
    const tailingJson = runCli(['tail', '--server', '@pair', '--count', '1', '--json'], tailJson.io);
    const started = Date.now();
    while ((tail.out() === '' || tailJson.out() === '') && Date.now() - started < 10_000) {
      await client.tool('echo', { text: 'not this server' });
      await call(hub, 'playground.request', { session: onProfile.session, method: 'tools/call', params: { name: 'beta__echo', arguments: { text: 'y' } } });
    }
    expect(await tailing).toBe(0);
    expect(await tailingJson).toBe(0);
    expect(tail.out()).toMatch(/^\d\d:\d\d:\d\d\.\d{3}\s+patchbay-playground\s+@pair\s+tools\/call\s+[\d.]+ms\s+ok\s+\[playground\]\n$/);
    expect(JSON.parse(tailJson.out())).toMatchObject({ server: '@pair', method: 'tools/call', client: 'patchbay-playground', sessionKind: 'playground' });
  });
});
