// The pipeline on its own (no hub, no inspector): taps fed directly, the exchange feed read.
import { describe, expect, it } from 'vitest';
import type { ObservedSession } from '../hub/observer.js';
import { createLogger } from '../log/logger.js';
import type { SessionCapture } from './capture-tap.js';
import type { ObservedExchange } from './observed-exchange.js';
import { Traffic } from './traffic.js';
import { DEFAULT_TRAFFIC_LIMITS } from './traffic-limits.js';

const opened = (extra: Partial<ObservedSession> = {}): ObservedSession => ({ key: {}, serverId: 'srv', clientTransport: 'streamable-http', upstreamTransport: 'stdio', debug: false, ...extra });

/** A call passing through: the client's request and the server's answer, each on both legs. */
function call(tap: SessionCapture, id: number, method = 'tools/call', params: Record<string, unknown> = { name: 'echo' }): void {
  const request = { jsonrpc: '2.0' as const, id, method, params };
  const raw = JSON.stringify(request);
  tap.fromClient(request, raw, undefined, 200);
  tap.toServer(request, raw, undefined);
  const answer = { jsonrpc: '2.0' as const, id, result: { content: [] } };
  const text = JSON.stringify(answer);
  tap.fromServer(answer, text);
  tap.toClient(answer, text, undefined);
}

describe('Traffic', () => {
  it('observes no session while nobody needs it; an active subscriber turns it on, a passive one does not', () => {
    const traffic = new Traffic(DEFAULT_TRAFFIC_LIMITS, createLogger('test'));
    expect(traffic.sessionOpened(opened())).toBeUndefined();
    const offPassive = traffic.onExchange(() => {}, { passive: true });
    expect(traffic.sessionOpened(opened())).toBeUndefined();
    const off = traffic.onExchange(() => {});
    expect(traffic.sessionOpened(opened())).toBeDefined();
    off();
    offPassive();
    expect(traffic.active).toBe(false);
    expect(traffic.sessionOpened(opened())).toBeUndefined();
  });

  it("carries a profile member's session to its exchanges, with the parent session's id", () => {
    const traffic = new Traffic(DEFAULT_TRAFFIC_LIMITS, createLogger('test'));
    const got: ObservedExchange[] = [];
    traffic.onExchange((x) => got.push(x));
    const parentKey = {};
    const parent = traffic.sessionOpened(opened({ key: parentKey, serverId: '@work' }))!;
    const member = traffic.sessionOpened(opened({ serverId: 'fs', profile: { id: '@work', parent: parentKey } }))!;
    call(member, 1, 'resources/read', { uri: 'file:///a' });
    traffic.flush();
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ session: { serverId: 'fs', profile: { id: '@work', parentSession: parent.sessionId } }, request: { id: 1, method: 'resources/read', target: 'file:///a' }, status: 'ok' });
  });

  it('keeps no finished exchange when nothing stores them, and a failing subscriber does not stop the others', () => {
    const warnings: string[] = [];
    const log = { ...createLogger('test'), warn: (m: string) => void warnings.push(m) };
    const traffic = new Traffic(DEFAULT_TRAFFIC_LIMITS, log);
    const got: ObservedExchange[] = [];
    traffic.onExchange(() => {
      throw new Error('boom');
    });
    traffic.onExchange((x) => got.push(x));
    const tap = traffic.sessionOpened(opened())!;
    for (let id = 1; id <= 50; id++) call(tap, id);
    traffic.flush();
    expect(got.map((x) => x.request.id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(tap.session!.tracker.exchanges.length).toBe(0);
    expect(tap.session!.tracker.counts.ok).toBe(50);
    expect(warnings).toHaveLength(50);
  });
});
