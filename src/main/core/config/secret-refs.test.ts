import { describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../shared/config-schema.js';
import type { SecretStore } from '../secrets/secret-store.js';
import {
  findSecretRefs,
  resolveSecretRefs,
  resolveServerSecrets,
  SecretResolutionError,
} from './secret-refs.js';

/** An in-memory SecretStore: the interface is the seam, no filesystem involved. */
function memoryStore(values: Record<string, string>): SecretStore & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    get: async (name) => {
      reads.push(name);
      return values[name];
    },
    set: async () => undefined,
    delete: async () => false,
    list: async () => Object.keys(values).sort(),
  };
}

describe('resolveSecretRefs', () => {
  it('replaces every reference, including repeats, and leaves other text alone', async () => {
    const store = memoryStore({ A: 'alpha', B: 'b$&$1' });
    expect(
      await resolveSecretRefs('x ${secret:A} ${secret:B} ${secret:A} $HOME ${other:A}', store),
    ).toBe('x alpha b$&$1 alpha $HOME ${other:A}');
    expect(store.reads).toEqual(['A', 'B']);
  });

  it('returns a value without references unchanged', async () => {
    expect(await resolveSecretRefs('plain', memoryStore({}))).toBe('plain');
  });

  it('names the missing secret and the server, and no other value', async () => {
    const store = memoryStore({ PRESENT: 'present-value' });
    const attempt = resolveSecretRefs('${secret:PRESENT}-${secret:GONE}', store, {
      serverId: 'gh',
      field: 'env.TOKEN',
    });
    await expect(attempt).rejects.toBeInstanceOf(SecretResolutionError);
    const err = (await attempt.catch((e: unknown) => e)) as SecretResolutionError;
    expect(err.code).toBe('secret_missing');
    expect(err.secretNames).toEqual(['GONE']);
    expect(err.message).toBe(
      "server 'gh': secret 'GONE' (used in env.TOKEN) is not set. Add it with: patchbay secrets set GONE",
    );
    expect(err.message).not.toContain('present-value');
  });

  it('rejects a reference with an invalid name without echoing it', async () => {
    const attempt = resolveSecretRefs('${secret:sk live key}', memoryStore({}));
    await expect(attempt).rejects.toMatchObject({ code: 'secret_ref_invalid' });
    await expect(attempt).rejects.not.toThrow(/sk live/);
  });
});

describe('resolveServerSecrets', () => {
  it('resolves env values, args, headers and url into a copy', async () => {
    const store = memoryStore({ TOKEN: 't0k', HOST: 'example.com' });
    const stdio: ServerConfig = {
      command: 'npx',
      args: ['--token=${secret:TOKEN}'],
      env: { GH: '${secret:TOKEN}', KEEP: 'k' },
      cwd: '${secret:TOKEN}',
    };
    const remote: ServerConfig = {
      url: 'https://${secret:HOST}/mcp',
      headers: { Authorization: 'Bearer ${secret:TOKEN}' },
    };
    const before = structuredClone([stdio, remote]);

    expect(await resolveServerSecrets(stdio, store, { serverId: 's' })).toEqual({
      command: 'npx',
      args: ['--token=t0k'],
      env: { GH: 't0k', KEEP: 'k' },
      cwd: '${secret:TOKEN}', // only env, args, headers and url are resolved
    });
    expect(await resolveServerSecrets(remote, store)).toEqual({
      url: 'https://example.com/mcp',
      headers: { Authorization: 'Bearer t0k' },
    });
    expect([stdio, remote]).toEqual(before);
  });

  it('works on a frozen config (the store hands those out)', async () => {
    const server = Object.freeze({ command: 'x', env: Object.freeze({ A: '${secret:A}' }) });
    expect(await resolveServerSecrets(server, memoryStore({ A: 'a' }))).toEqual({
      command: 'x',
      env: { A: 'a' },
    });
  });

  it('reports every missing secret at once, with where each is used', async () => {
    const server: ServerConfig = {
      url: 'https://x/${secret:PATH}',
      headers: { 'X-Key': '${secret:KEY}' },
    };
    await expect(
      resolveServerSecrets(server, memoryStore({}), { serverId: 'api' }),
    ).rejects.toMatchObject({
      code: 'secret_missing',
      secretNames: ['PATH', 'KEY'],
      serverId: 'api',
      message:
        "server 'api': secrets 'PATH' (used in url), 'KEY' (used in headers[\"X-Key\"]) are not set. Add each with: patchbay secrets set NAME",
    });
  });
});

describe('findSecretRefs', () => {
  it('lists every reference with its JSON path and whether the name is valid', () => {
    const refs = findSecretRefs({
      mcpServers: {
        gh: { command: 'x', env: { TOKEN: '${secret:GH_TOKEN}' } },
        'my-api': { url: 'https://x', headers: { A: '${secret:bad name}' } },
      },
    });
    expect(refs).toEqual([
      { serverId: 'gh', path: '$.mcpServers.gh.env.TOKEN', name: 'GH_TOKEN', valid: true },
      {
        serverId: 'my-api',
        path: '$.mcpServers["my-api"].headers.A',
        name: 'bad name',
        valid: false,
      },
    ]);
  });
});
