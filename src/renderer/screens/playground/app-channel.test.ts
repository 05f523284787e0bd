// The trust boundary between the playground and an MCP App's frame: only the frame's own
// JSON-RPC reaches the bridge, within the rate limit; a flood stops the app.
import { describe, expect, it } from 'vitest';
import { ABUSE_DROPS, AppChannel, BURST, PER_SECOND, RateLimit } from './app-channel.js';
import { appCallable, appResourceUri } from './app-ui.js';

function harness() {
  const target = new EventTarget();
  const frame = {} as Window;
  const stranger = {} as Window;
  let now = 0;
  const seen: unknown[] = [];
  const abuse: string[] = [];
  let ready = 0;
  const channel = new AppChannel(() => frame, { sandboxReady: () => ready++, abuse: (r) => abuse.push(r) }, () => now, target as unknown as Window);
  channel.onmessage = (m) => seen.push(m);
  const post = (data: unknown, source: Window = frame): void => {
    const event = new MessageEvent('message', { data });
    Object.defineProperty(event, 'source', { value: source });
    target.dispatchEvent(event);
  };
  return { channel, post, seen, abuse, ready: () => ready, stranger, tick: (ms: number) => (now += ms) };
}

describe('the app channel', () => {
  it('passes the frame’s JSON-RPC on and drops garbage and other windows’ messages', () => {
    const h = harness();
    h.post({ type: 'patchbay/app-sandbox-ready' });
    expect(h.ready()).toBe(1);
    h.post({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} });
    h.post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: {} }, h.stranger);
    for (const bad of ['garbage', null, 42, [], { jsonrpc: '1.0', method: 'x' }, { jsonrpc: '2.0', method: 42 }, { jsonrpc: '2.0', id: {}, result: 1 }, { jsonrpc: '2.0', id: 1, result: 1, error: {} }, { jsonrpc: '2.0', method: 'x', params: [1] }, { jsonrpc: '2.0', method: 'x'.repeat(201) }]) h.post(bad);
    expect(h.seen).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} }]);
    expect(h.channel.dropped).toBe(10);
  });

  it('rate-limits, and stops an app that floods', () => {
    const h = harness();
    const note = { jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 1 } };
    for (let i = 0; i < BURST + 10; i++) h.post(note);
    expect(h.seen).toHaveLength(BURST);
    h.tick(1000);
    for (let i = 0; i < PER_SECOND + 10; i++) h.post(note);
    expect(h.seen).toHaveLength(BURST + PER_SECOND);
    for (let i = 0; i < ABUSE_DROPS; i++) h.post(note);
    expect(h.abuse).toEqual([`it sent more than ${PER_SECOND} messages a second`]);
  });

  it('hears nothing once closed', async () => {
    const h = harness();
    await h.channel.close();
    h.post({ jsonrpc: '2.0', method: 'ui/notifications/initialized' });
    expect(h.seen).toEqual([]);
  });

  it('a token bucket refills at its rate', () => {
    let t = 0;
    const limit = new RateLimit(() => t);
    for (let i = 0; i < BURST; i++) expect(limit.take()).toBe(true);
    expect(limit.take()).toBe(false);
    t += 10;
    expect(limit.take()).toBe(true);
    expect(limit.take()).toBe(false);
  });
});

describe('which tools an app may call', () => {
  const tool = (name: string, uri?: string) => ({ name, ...(uri ? { _meta: { ui: { resourceUri: uri } } } : {}) });
  it('reads the UI resource, current and legacy keys', () => {
    expect(appResourceUri(tool('a', 'ui://a/view.html'))).toBe('ui://a/view.html');
    expect(appResourceUri({ _meta: { 'ui/resourceUri': 'ui://old/view.html' } })).toBe('ui://old/view.html');
    expect(appResourceUri({ _meta: { ui: { resourceUri: 'https://evil.example/' } } })).toBeUndefined();
    expect(appResourceUri({})).toBeUndefined();
  });
  it('on a server: its tools; on a profile: only its member’s, by either name', () => {
    const server = [tool('show'), tool('refresh')];
    expect(appCallable(server, 'refresh', 'ui://a/view.html', false)?.name).toBe('refresh');
    expect(appCallable(server, 'nope', 'ui://a/view.html', false)).toBeUndefined();
    const profile = [tool('a__show', 'ui://a/view.html'), tool('a__refresh', 'ui://a/view.html'), tool('b__show_b', 'ui://b/view.html'), tool('b__plain')];
    expect(appCallable(profile, 'refresh', 'ui://a/view.html', true)?.name).toBe('a__refresh');
    expect(appCallable(profile, 'a__refresh', 'ui://a/view.html', true)?.name).toBe('a__refresh');
    expect(appCallable(profile, 'show_b', 'ui://a/view.html', true)).toBeUndefined();
    expect(appCallable(profile, 'plain', 'ui://a/view.html', true)).toBeUndefined();
  });
});
