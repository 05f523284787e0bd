import { describe, expect, it } from 'vitest';
import { parseRoute } from './router.js';

describe('hash routes', () => {
  it("opens a client's export directly (the desktop tray's Export to Claude Desktop…)", () => {
    expect(parseRoute('#/clients/claude-desktop/export')).toEqual({ screen: 'clients', exportClient: 'claude-desktop' });
    expect(parseRoute('#/clients')).toEqual({ screen: 'clients' });
    expect(parseRoute('#/clients/claude-desktop')).toEqual({ screen: 'clients' });
  });
});

describe('playground routes', () => {
  it("opens a server's playground, and one tool in it", () => {
    expect(parseRoute('#/servers/demo/playground')).toEqual({ screen: 'servers', serverId: 'demo', mode: 'playground' });
    expect(parseRoute('#/servers/demo/playground/tool%3Aecho')).toEqual({ screen: 'servers', serverId: 'demo', mode: 'playground', item: 'tool:echo' });
    expect(parseRoute('#/servers/demo')).toEqual({ screen: 'servers', serverId: 'demo' });
  });

  it("opens a profile's playground, and one tool in it", () => {
    expect(parseRoute('#/profiles/work/playground')).toEqual({ screen: 'profiles', name: 'work', mode: 'playground' });
    expect(parseRoute('#/profiles/work/playground/tool%3Aalpha__echo')).toEqual({ screen: 'profiles', name: 'work', mode: 'playground', item: 'tool:alpha__echo' });
    expect(parseRoute('#/profiles/work')).toEqual({ screen: 'profiles', name: 'work' });
  });
});

describe('catalog routes', () => {
  it('opens Add from catalog, and one entry in its detail pane (a registry name keeps its slash)', () => {
    expect(parseRoute('#/servers/catalog')).toEqual({ screen: 'servers', mode: 'catalog' });
    expect(parseRoute('#/servers/catalog/io.github.acme%2Fweather')).toEqual({ screen: 'servers', mode: 'catalog', item: 'io.github.acme/weather' });
  });
});
