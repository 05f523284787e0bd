/**
 * The secret guard at its own seam (docs/secret-checks.md): a real finder, and on the other side
 * of the guard the raw JSON text a server or a client wrote — which a real server of ours never
 * escapes the way other encoders do, so the text is written here:
 * - a stored secret or a token spelled with JSON escapes (`\/`, `\uXXXX`) is blocked, masked or
 *   reported like a plain one, in requests and answers, in both eras;
 * - a check that fails says, under `block`, which server and which setting, in both eras;
 * - a `warn` screen that throws is reported as a failed check, not dropped.
 */
import { describe, expect, it, vi } from 'vitest';
import type { JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from '../../src/main/core/protocol/json-rpc.js';
import { SecretFinder, type SecretFinding } from '../../src/main/core/guard/secret-finder.js';
import { BLOCKED_CODE, guardConnection, guardModern, type GuardDeps, type GuardReport, type SecretCheckMode } from '../../src/main/core/guard/secret-guard.js';
import type { ModernCallHandlers, ModernCallRequest, ModernUpstream } from '../../src/main/core/upstream/modern-upstream.js';
import type { UpstreamConnection } from '../../src/main/core/upstream/upstream.js';

const GITHUB_TOKEN = `ghp_${'A1b2C3d4E5f6G7h8I9j0'.repeat(2).slice(0, 36)}`;
const KNOWN = [{ label: 'SLASHED', value: 'abc/def/ghijkl' }, { label: 'PLAIN', value: 'supersecret1' }];
/** Each: how a JSON string spells it (inside the quotes), what it is, and what masking leaves. */
const SPELLINGS = [
  { name: '\\/ escapes', spelled: 'abc\\/def\\/ghijkl', value: 'abc/def/ghijkl', rule: 'stored-secret', masked: '[secret:SLASHED]' },
  { name: '\\u escapes', spelled: '\\u0073upersecret1', value: 'supersecret1', rule: 'stored-secret', masked: '[secret:PLAIN]' },
  { name: 'a \\u-escaped token prefix', spelled: `\\u0067hp_${GITHUB_TOKEN.slice(4)}`, value: GITHUB_TOKEN, rule: 'github', masked: '[secret:github]' },
];

/** A tools/call's raw text carrying `spelled` in its argument. */
const callText = (id: number, spelled: string): string => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"${spelled}"}}}`;
/** A tool result's raw text carrying `spelled`. */
const answerText = (id: number, spelled: string): string => `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"${spelled}"}]}}`;

function depsWith(finder: SecretFinder): GuardDeps & { reports: GuardReport[]; failures: Array<{ server: string; message: string }> } {
  const reports: GuardReport[] = [];
  const failures: Array<{ server: string; message: string }> = [];
  return { finder, reports, failures, report: (r) => reports.push(r), failed: (server, err) => failures.push({ server, message: err.message }) };
}

function realFinder(): SecretFinder {
  const finder = new SecretFinder();
  finder.setKnown(KNOWN);
  return finder;
}

/** The server's end of a 2025 connection: what reached it, and a way to answer with raw text. */
class ServerEnd implements UpstreamConnection {
  readonly sent: JsonRpcMessage[] = [];
  onmessage: UpstreamConnection['onmessage'];
  onclose: UpstreamConnection['onclose'];
  onevent: UpstreamConnection['onevent'];
  closed = false;
  send(message: JsonRpcMessage): void {
    this.sent.push(message);
  }
  answer(raw: string): void {
    this.onmessage?.(JSON.parse(raw) as JsonRpcMessage, raw, false);
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

/** A 2025 connection under `mode`, and what its client got. */
function legacy(mode: SecretCheckMode, finder = realFinder()) {
  const server = new ServerEnd();
  const deps = depsWith(finder);
  const conn = guardConnection(server, 'fx', mode, deps);
  const got: JsonRpcMessage[] = [];
  conn.onmessage = (message) => got.push(message);
  const request = (raw: string): void => conn.send(JSON.parse(raw) as JsonRpcMessage, raw);
  return { server, deps, got, request };
}

/** A 2026-07-28 upstream under `mode`: each call's request as the server got it, and the client's answer. */
function modern(mode: SecretCheckMode, finder = realFinder()) {
  const deps = depsWith(finder);
  const calls: Array<{ request: ModernCallRequest; handlers: ModernCallHandlers }> = [];
  const inner: ModernUpstream = { call: (request, handlers) => (calls.push({ request, handlers }), { cancel: () => {} }), close: async () => {} };
  const upstream = guardModern(inner, 'fx', mode, deps);
  const call = (raw: string) => {
    const answers: JsonRpcResponse[] = [];
    upstream.call({ message: JSON.parse(raw) as JsonRpcRequest, raw, headers: {} }, { notification: () => {}, response: (m) => answers.push(m) });
    return answers;
  };
  const answer = (i: number, raw: string): void => calls[i]!.handlers.response(JSON.parse(raw) as JsonRpcResponse, raw, { local: false });
  return { deps, calls, call, answer };
}

const textOf = (m: JsonRpcMessage | undefined): unknown => (m as { result?: { content?: Array<{ text?: string }> } } | undefined)?.result?.content?.[0]?.text;
const argOf = (m: JsonRpcMessage | undefined): unknown => (m as { params?: { arguments?: { text?: string } } } | undefined)?.params?.arguments?.text;
const rules = (reports: GuardReport[]): Array<[string, string, string]> => reports.map((r) => [r.direction, r.action, r.findings.map((f: SecretFinding) => f.rule).join()]);

describe.each(SPELLINGS)('a secret spelled with $name', ({ spelled, value, rule, masked }) => {
  it('2025 era: block refuses the request and withholds the answer', async () => {
    const c = legacy('block');
    c.request(callText(1, spelled));
    await vi.waitFor(() => expect(c.got).toHaveLength(1));
    expect(c.server.sent).toEqual([]);
    expect(c.got[0]).toMatchObject({ id: 1, error: { code: BLOCKED_CODE, message: expect.stringContaining(`(rule ${rule})`) } });
    c.request(callText(2, 'nothing here'));
    await vi.waitFor(() => expect(c.server.sent).toHaveLength(1));
    c.server.answer(answerText(2, spelled));
    await vi.waitFor(() => expect(c.got).toHaveLength(2));
    expect(c.got[1]).toMatchObject({ id: 2, error: { code: BLOCKED_CODE, message: expect.stringContaining("Patchbay withheld server 'fx''s answer") } });
    expect(JSON.stringify(c.got)).not.toContain(value);
  });

  it('2025 era: mask replaces it both ways', async () => {
    const c = legacy('mask');
    c.request(callText(1, `x ${spelled}`));
    await vi.waitFor(() => expect(c.server.sent).toHaveLength(1));
    expect(argOf(c.server.sent[0])).toBe(`x ${masked}`);
    c.server.answer(answerText(1, `y ${spelled}`));
    await vi.waitFor(() => expect(c.got).toHaveLength(1));
    expect(textOf(c.got[0])).toBe(`y ${masked}`);
  });

  it('2025 era: warn reports it both ways', async () => {
    const c = legacy('warn');
    c.request(callText(1, spelled));
    c.server.answer(answerText(1, spelled));
    await vi.waitFor(() => expect(c.deps.reports).toHaveLength(2));
    expect(rules(c.deps.reports)).toEqual([['request', 'warned', rule], ['result', 'warned', rule]]);
  });

  it('2026-07-28 era: block, mask and warn', async () => {
    const b = modern('block');
    const refused = b.call(callText(1, spelled));
    await vi.waitFor(() => expect(refused).toHaveLength(1));
    expect(b.calls).toEqual([]);
    expect(refused[0]).toMatchObject({ error: { code: BLOCKED_CODE } });
    const withheld = b.call(callText(2, 'nothing here'));
    b.answer(0, answerText(2, spelled));
    await vi.waitFor(() => expect(withheld).toHaveLength(1));
    expect(withheld[0]).toMatchObject({ error: { code: BLOCKED_CODE, message: expect.stringContaining('withheld') } });

    const m = modern('mask');
    const answers = m.call(callText(1, `x ${spelled}`));
    await vi.waitFor(() => expect(m.calls).toHaveLength(1));
    expect(argOf(m.calls[0]!.request.message)).toBe(`x ${masked}`);
    m.answer(0, answerText(1, `y ${spelled}`));
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    expect(textOf(answers[0])).toBe(`y ${masked}`);

    const w = modern('warn');
    w.call(callText(1, spelled));
    w.answer(0, answerText(1, spelled));
    await vi.waitFor(() => expect(w.deps.reports).toHaveLength(2));
    expect(rules(w.deps.reports)).toEqual([['request', 'warned', rule], ['result', 'warned', rule]]);
  });
});

/** A finder whose check proper fails (a secretlint that cannot load, say). */
class BrokenFinder extends SecretFinder {
  override mayContain(): boolean {
    return true;
  }
  override find(): Promise<SecretFinding[]> {
    return Promise.reject(new Error('the rules did not load'));
  }
}

/** …that screens answers only (so a request passes, and its answer's check fails). */
class AnswersOnly extends BrokenFinder {
  override mayContain(text?: string): boolean {
    return text?.includes('"result"') === true;
  }
}

describe('a check that fails', () => {
  const couldNot = (what: string) => `Patchbay could not check this ${what} for secrets, and server 'fx''s secret check is set to "block": the rules did not load`;

  it('under block, the error names the server and the setting, in both eras', async () => {
    const c = legacy('block', new BrokenFinder());
    c.request(callText(1, 'hello'));
    await vi.waitFor(() => expect(c.got).toHaveLength(1));
    expect(c.got[0]).toMatchObject({ error: { code: BLOCKED_CODE, message: couldNot('request') } });
    expect(c.deps.failures).toEqual([{ server: 'fx', message: 'the rules did not load' }]);

    const m = modern('block', new BrokenFinder());
    const refused = m.call(callText(1, 'hello'));
    await vi.waitFor(() => expect(refused).toHaveLength(1));
    expect(refused[0]).toMatchObject({ error: { code: BLOCKED_CODE, message: couldNot('request') } });

    // An answer: the request must pass first, so only the answer's check fails.
    const a = modern('block', new AnswersOnly());
    const withheld = a.call(callText(1, 'hello'));
    a.answer(0, answerText(1, 'hello'));
    await vi.waitFor(() => expect(withheld).toHaveLength(1));
    expect(withheld[0]).toMatchObject({ error: { code: BLOCKED_CODE, message: couldNot('answer') } });
  });

  it("under warn, a screen that throws is reported as the server's failed check, in both eras", async () => {
    const throwing = new SecretFinder();
    throwing.mayContain = () => {
      throw new Error('screen broke');
    };
    const c = legacy('warn', throwing);
    c.request(callText(1, 'hello'));
    expect(c.server.sent).toHaveLength(1);
    c.server.answer(answerText(1, 'hello'));
    expect(c.got).toHaveLength(1);
    await vi.waitFor(() => expect(c.deps.failures).toEqual([{ server: 'fx', message: 'screen broke' }, { server: 'fx', message: 'screen broke' }]));

    const m = modern('warn', throwing);
    const answers = m.call(callText(1, 'hello'));
    m.answer(0, answerText(1, 'hello'));
    expect(answers).toHaveLength(1);
    await vi.waitFor(() => expect(m.deps.failures).toHaveLength(2));
  });
});
