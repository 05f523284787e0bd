/**
 * Profiles in config.json: a file with mistakes is reported with JSON paths and the last good
 * config kept (the profile keeps being served); server ids may not start with "@".
 */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { toolText } from '../helpers/json-rpc.js';
import { connect } from '../helpers/test-client.js';
import { waitFor } from '../helpers/waits.js';
import { alphaServer, betaServer, profileHub } from './profile-harness.js';

describe('profiles in config.json', () => {
  it('reports mistakes with JSON paths and keeps serving the last good profiles', async () => {
    const hub = await profileHub({ work: { servers: ['alpha'] } });
    const bad = {
      mcpServers: { alpha: alphaServer(), beta: betaServer(), '@sneaky': alphaServer() },
      profiles: {
        work: { servers: ['alpha', 'beta', 'alpha', 3], prefix: false, holdChangedTools: 'sometimes' },
        notes: { servers: { alpha: { tools: 'read_*', prompts: { deny: 'x' }, prefix: 'no' } } },
        'bad name!': {},
        flat: 'alpha',
      },
    };
    await writeFile(hub.engine.configFile, JSON.stringify(bad, null, 2));
    const problems = await waitFor(() => (hub.engine.configProblems().length > 0 ? hub.engine.configProblems() : undefined), 'the config problems');
    const byPath = Object.fromEntries(problems.map((p) => [p.path, p.message]));
    expect(byPath).toEqual({
      '$.mcpServers["@sneaky"]': 'invalid server id: it may not start with "@" (/mcp/@<name> is a profile\'s endpoint)',
      '$.profiles.work.servers[2]': '"alpha" is listed twice',
      '$.profiles.work.servers[3]': 'a member must be a server id (a string), got a number',
      '$.profiles.work.holdChangedTools': expect.stringContaining('remote'),
      '$.profiles.notes.servers.alpha.tools': 'must be true, false, a list of names or globs such as ["read_*"], or {"allow": [...], "deny": [...]}; got a string',
      '$.profiles.notes.servers.alpha.prompts.deny': 'must be a list of names or globs, got a string',
      '$.profiles.notes.servers.alpha.prefix': 'must be true or false, got a string',
      '$.profiles["bad name!"]': expect.stringMatching(/^invalid profile name: /),
      '$.profiles.flat': 'a profile must be an object such as {"servers": ["fs", "github"]}, got a string',
    });
    // The last good config is still what runs.
    const client = await connect(hub, '@work');
    expect(toolText((await client.callTool('alpha__echo', { text: 'kept' })).response)).toBe('alpha: kept');
  });
});
