/** The relay hand-off's answer channel (hand-off.ts) and the data dir check (data-dir-check.ts). */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDataDir } from './data-dir-check.js';
import { isHandOffId, newHandOffId, waitForHandOffAnswer, writeHandOffAnswer } from './hand-off.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-handoff-'));
  dirs.push(dir);
  return dir;
}

describe('relay hand-off answers', () => {
  it('the second instance gets the first one’s answer, once; the file is removed', async () => {
    const userData = await tempDir();
    const id = newHandOffId();
    const waiting = waitForHandOffAnswer(userData, id, { timeoutMs: 10_000, pollMs: 10 });
    await writeHandOffAnswer(userData, id, { state: 'error', message: 'port 5 is in use' });
    expect(await waiting).toEqual({ state: 'error', message: 'port 5 is in use' });
    expect(await waitForHandOffAnswer(userData, id, { timeoutMs: 0 })).toBeUndefined();
  });

  it('only a UUID names an answer file; a garbled answer is an error, not a success', async () => {
    const userData = await tempDir();
    expect(isHandOffId(newHandOffId())).toBe(true);
    for (const bad of ['../../etc/passwd', '', 42, undefined]) expect(isHandOffId(bad)).toBe(false);
    await writeHandOffAnswer(userData, '../escape', { state: 'running', url: 'http://127.0.0.1:1' });
    const id = newHandOffId();
    await writeHandOffAnswer(userData, id, { state: 'running', url: 'http://127.0.0.1:1' });
    await writeFile(path.join(userData, 'hand-offs', `${id}.json`), '{"state":"running"}');
    expect(await waitForHandOffAnswer(userData, id, { timeoutMs: 0 })).toMatchObject({ state: 'error' });
  });
});

describe('data dir check', () => {
  it('creates the data dir, and reports one that cannot be written with its reason', async () => {
    const dir = await tempDir();
    expect(checkDataDir(path.join(dir, 'new', 'data'))).toEqual({ ok: true });
    await writeFile(path.join(dir, 'file'), 'x');
    const blocked = checkDataDir(path.join(dir, 'file', 'data'));
    expect(blocked).toMatchObject({ ok: false, message: expect.stringMatching(/^ENOTDIR: /) });
  });
});
