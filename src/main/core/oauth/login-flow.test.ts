import { describe, expect, it } from 'vitest';
import { createLoginFlow, isJoinable } from './login-flow.js';

const flow = (scope: string | undefined, ttlMs = 60_000) =>
  createLoginFlow({ serverId: 's', state: 'st', codeVerifier: 'v', authorizationUrl: 'https://as/authorize', scope, discovery: undefined }, ttlMs);

describe('login flows', () => {
  it('settles once; a rejection nobody awaits is not unhandled', async () => {
    const f = flow(undefined);
    f.reject(new Error('no'));
    f.resolve();
    expect(f.settled).toBe(true);
    await expect(f.done).rejects.toThrow('no');
  });

  it('a request joins a pending flow that asked for at least its scope', () => {
    const f = flow('a b');
    expect(isJoinable(f, undefined)).toBe(true);
    expect(isJoinable(f, 'a')).toBe(true);
    expect(isJoinable(f, 'b a')).toBe(true);
    expect(isJoinable(f, 'a c')).toBe(false);
    expect(isJoinable(undefined, 'a')).toBe(false);
  });

  it('never joins a settled or expired flow', () => {
    const done = flow(undefined);
    done.resolve();
    expect(isJoinable(done, undefined)).toBe(false);
    const old = flow(undefined, 10);
    expect(isJoinable(old, undefined, Date.now() + 20)).toBe(false);
  });
});
