/**
 * What a stdio child's large answers become on their way in (lazy-answer.ts): routed on a skim,
 * parsed on first read; anything the skim does not take, parsed at once as before. A real child
 * process (the probe fixture) and the real line reader, so the bytes the skim's control test reads
 * are the ones that came off the pipe.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../../../../test/helpers/repo-paths.js';
import { withTimeout } from '../../../../test/helpers/waits.js';
import { resultPending } from '../protocol/lazy-answer.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.js';
import { StdioUpstream } from './stdio-upstream.js';

let child: StdioUpstream | undefined;
afterEach(async () => {
  await child?.close();
  child = undefined;
});

/** Calls `name` on a fresh probe child and resolves with what the upstream hands on for it. */
function answerOf(name: string, args: Record<string, unknown>): Promise<{ message: JsonRpcMessage; raw: string; pending: boolean }> {
  child = new StdioUpstream({ serverId: 'probe', command: process.execPath, args: [path.join(FIXTURES_DIR, 'probe-server.mjs')], env: { PATH: process.env.PATH ?? '' } });
  const answered = new Promise<{ message: JsonRpcMessage; raw: string; pending: boolean }>((resolve) => {
    child!.onmessage = (message, raw) => {
      if ('id' in message && message.id === 1) resolve({ message, raw, pending: resultPending(message) });
    };
  });
  child.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  return withTimeout(answered, 10_000, `the probe's answer to ${name} (stderr: ${child.stderrTail || 'none'})`);
}

describe('a stdio child’s large answers', () => {
  it('an ASCII answer of 1 MiB is handed on unparsed, and reads as the parsed line', async () => {
    const { message, raw, pending } = await answerOf('nested_ids', { bytes: 1 << 20 });
    expect(pending).toBe(true);
    expect(JSON.stringify(message)).toBe(JSON.stringify(JSON.parse(raw)));
    expect(resultPending(message)).toBe(false);
  });

  it('so is one with characters beyond ASCII (its text is tested for control characters instead of its bytes)', async () => {
    const text = 'é — 日本 🌍 '.repeat(10_000);
    const { message, pending } = await answerOf('echo', { text });
    expect(pending).toBe(true);
    expect((message as { result: { content: Array<{ text: string }> } }).result.content[0]!.text).toBe(text);
  });

  it('an answer that holds JSON as text (an escape every few bytes) is parsed at once, as before', async () => {
    const text = JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `item-${i}` })));
    const { message, raw, pending } = await answerOf('echo', { text });
    expect(pending).toBe(false);
    expect(message).toEqual(JSON.parse(raw));
  });

  it('a small answer is parsed at once', async () => {
    const { pending } = await answerOf('echo', { text: 'small' });
    expect(pending).toBe(false);
  });
});
