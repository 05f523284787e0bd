import { describe, expect, it } from 'vitest';
import { delay, withTimeout } from './timeout.js';

describe('withTimeout', () => {
  it('settles with the promise when it comes first', async () => {
    await expect(withTimeout(Promise.resolve('answer'), 10_000, () => 'late')).resolves.toBe('answer');
    await expect(withTimeout(Promise.reject(new Error('no')), 10_000, () => 'late')).rejects.toThrow('no');
  });

  it('settles with what `expired` returns or throws when the deadline comes first', async () => {
    const never = new Promise<string>(() => {});
    await expect(withTimeout(never, 1, () => false)).resolves.toBe(false);
    await expect(withTimeout(never, 1, () => { throw new Error('did not answer within 1ms'); })).rejects.toThrow('did not answer within 1ms');
  });

  it('ignores the deadline once the promise settled', async () => {
    let called = false;
    await withTimeout(Promise.resolve(1), 1, () => (called = true));
    await delay(5);
    expect(called).toBe(false);
  });
});
