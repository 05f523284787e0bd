/**
 * Issue 23: tool arguments and results go on the spans only when the user opts in
 * (`telemetry.captureContent`), through the inspector's redaction: a secret-store value never
 * leaves, written plainly or as a JSON `\u` escape, in arguments, results, error texts or events.
 * Without the opt-in no content is exported at all.
 */
import { describe, expect, it } from 'vitest';
import '../helpers/cleanup.js';
import { messagesOfResponse } from '../helpers/mcp-http.js';
import { probeServer } from '../helpers/server-entries.js';
import { connect } from '../helpers/test-client.js';
import { startReceiver, type ReceivedSpan } from './otlp-receiver.js';
import { CLIENT, SERVER, spanNamed, STATUS_ERROR, telemetryHub } from './telemetry-harness.js';

const SECRET = 'pb-live-Zq81xYk3Wd';
/** The same secret as a JSON `\u` escape spells it (what a plain search misses). */
const ESCAPED = SECRET.split('').map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

function exported(spans: ReceivedSpan[]): string {
  return JSON.stringify(spans, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
}

describe('content on spans', () => {
  it('with captureContent: tool arguments and results, redacted as in the inspector', async () => {
    const receiver = await startReceiver('http/protobuf');
    const h = await telemetryHub(receiver, 'http/protobuf', { servers: { p: probeServer() }, secrets: { API_TOKEN: SECRET } }, { captureContent: true });
    const client = await connect(h, 'p');
    await client.callTool('echo', { text: `token=${SECRET}` });
    // The same secret escaped in the raw JSON the client sends.
    const res = await client.post(`{"jsonrpc":"2.0","id":"esc","method":"tools/call","params":{"name":"echo","arguments":{"text":"escaped=${ESCAPED}"}}}`);
    await messagesOfResponse(res);
    await client.callTool('nope', { text: SECRET });

    const plain = await spanNamed(receiver, 'tools/call echo', SERVER, (s) => String(s.attributes['gen_ai.tool.call.arguments'] ?? '').includes('token='));
    expect(JSON.parse(String(plain.attributes['gen_ai.tool.call.arguments']))).toEqual({ text: 'token=[secret:API_TOKEN]' });
    expect(JSON.parse(String(plain.attributes['gen_ai.tool.call.result']))).toMatchObject({ content: [{ type: 'text', text: 'token=[secret:API_TOKEN]' }] });
    const client2 = await spanNamed(receiver, 'tools/call echo', CLIENT, (s) => s.parentSpanId === plain.spanId);
    expect(client2.attributes['gen_ai.tool.call.arguments']).toBe(plain.attributes['gen_ai.tool.call.arguments']);
    const escaped = await spanNamed(receiver, 'tools/call echo', SERVER, (s) => String(s.attributes['gen_ai.tool.call.arguments'] ?? '').includes('escaped='));
    expect(String(escaped.attributes['gen_ai.tool.call.arguments'])).toContain('[secret:API_TOKEN]');
    // A failed call has no result attribute; its error message is the status description.
    const failed = await spanNamed(receiver, 'tools/call nope', SERVER);
    expect(failed.attributes['gen_ai.tool.call.result']).toBeUndefined();
    expect(failed.status.code).toBe(STATUS_ERROR);
    expect(exported(receiver.spans)).not.toContain(SECRET);
    expect(exported(receiver.spans)).not.toContain(ESCAPED);
  });

  it('without it: no arguments, results or texts at all', async () => {
    const receiver = await startReceiver('http/protobuf');
    const h = await telemetryHub(receiver, 'http/protobuf', { servers: { p: probeServer() } });
    const client = await connect(h, 'p');
    await client.callTool('echo', { text: 'private words' });
    const span = await spanNamed(receiver, 'tools/call echo', SERVER);
    expect(span.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(span.attributes['gen_ai.tool.call.result']).toBeUndefined();
    expect(exported(receiver.spans)).not.toContain('private words');
  });
});
