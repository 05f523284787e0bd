import { describe, expect, it } from 'vitest';
import { buildChildEnv, inheritedEnv, mergePathLists, readLoginShellPath } from './child-env.js';

describe('child environment (P31)', () => {
  const base = { HOME: '/home/u', PATH: '/usr/bin:/bin', USER: 'u', AWS_SECRET_ACCESS_KEY: 'leak', GITHUB_TOKEN: 'leak', HTTPS_PROXY: 'http://proxy:3128', BASH_FUNC_x: '() { :; }' };

  it('inherits only the minimal set and network settings', () => {
    const env = inheritedEnv(base, 'linux');
    expect(env).toEqual({ HOME: '/home/u', PATH: '/usr/bin:/bin', USER: 'u', HTTPS_PROXY: 'http://proxy:3128' });
  });

  it('puts the login-shell PATH first, then the configured env on top', () => {
    const env = buildChildEnv({ base, platform: 'linux', loginPath: '/opt/node/bin:/usr/bin', configured: { API_URL: 'x', HOME: '/other' } });
    expect(env.PATH).toBe('/opt/node/bin:/usr/bin:/bin');
    expect(env.API_URL).toBe('x');
    expect(env.HOME).toBe('/other');
    expect(env.GITHUB_TOKEN).toBeUndefined();
  });

  it('merges PATH lists without duplicates or empty entries', () => {
    expect(mergePathLists(['/a::/b', '/b:/c', undefined], ':')).toBe('/a:/b:/c');
  });

  it('reads PATH from a real login shell', async () => {
    const path = await readLoginShellPath({ ...process.env, SHELL: '/bin/sh' }, 'linux');
    expect(path).toBeDefined();
    expect(path!.split(':').length).toBeGreaterThan(0);
  });

  it('gives up on Windows, where there is no login shell to ask', async () => {
    expect(await readLoginShellPath(process.env, 'win32')).toBeUndefined();
  });
});
