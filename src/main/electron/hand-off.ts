/**
 * A relay's hidden launch while the app already runs (issue 18): the second instance hands "make
 * sure the engine runs" to the first one and must not exit before it knows the outcome — the relay
 * that launched it takes its exit for the hub's ("the hub exited with code 0") and gives up.
 * Electron's single-instance lock carries data from the second instance to the first only, so the
 * answer comes back as a file: `<userData>/hand-offs/<id>.json`, written by the first instance once
 * its engine runs or failed, read (and removed) by the second, which then exits 0 or prints the
 * error and exits 1.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { errCode, writeFileAtomic } from '../core/index.js';

export type HandOffAnswer = { state: 'running'; url: string } | { state: 'error'; message: string };

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function newHandOffId(): string {
  return randomUUID();
}

/** The id arrives from another process (the lock's data): only a UUID names a file. */
export function isHandOffId(value: unknown): value is string {
  return typeof value === 'string' && ID.test(value);
}

function answerFile(userData: string, id: string): string {
  return path.join(userData, 'hand-offs', `${id}.json`);
}

export async function writeHandOffAnswer(userData: string, id: string, answer: HandOffAnswer): Promise<void> {
  if (!isHandOffId(id)) return;
  await mkdir(path.join(userData, 'hand-offs'), { recursive: true, mode: 0o700 });
  await writeFileAtomic(answerFile(userData, id), JSON.stringify(answer), { mode: 0o600 });
}

/** Polls for the answer until it arrives or `timeoutMs` passes (undefined then). */
export async function waitForHandOffAnswer(userData: string, id: string, options: { timeoutMs: number; pollMs?: number }): Promise<HandOffAnswer | undefined> {
  const file = answerFile(userData, id);
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const answer = await readAnswer(file);
    if (answer) {
      await rm(file, { force: true });
      return answer;
    }
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
}

async function readAnswer(file: string): Promise<HandOffAnswer | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    if (errCode(err) === 'ENOENT') return undefined;
    return { state: 'error', message: `the running app's answer could not be read (${(err as Error).message})` };
  }
  const v = value as { state?: unknown; url?: unknown; message?: unknown };
  if (v.state === 'running' && typeof v.url === 'string') return { state: 'running', url: v.url };
  if (v.state === 'error' && typeof v.message === 'string') return { state: 'error', message: v.message };
  return { state: 'error', message: "the running app's answer was not understood" };
}
