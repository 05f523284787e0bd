// Component test: a profile's detail shows its URL, totals (both ways, with on-demand tools),
// warnings, changed tools and tool costs, app-only tools, and its toggles, pins, on-demand switch
// and Approve button call the API.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProfileView } from '../../../shared/api/profiles-contract.js';
import type { Bridge } from '../../bridge/bridge.js';
import { createStores, ServicesProvider } from '../../app/services.js';
import { ProfileDetail } from './profile-detail.js';
import { ChangedTools } from './changed-tools.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view: ProfileView = {
  name: 'work',
  url: 'http://127.0.0.1:1/mcp/@work',
  builtIn: false,
  prefix: true,
  holdChangedTools: 'always',
  sessions: 1,
  changedTools: 1,
  members: [
    {
      server: 'alpha',
      state: 'enabled',
      kind: 'stdio',
      explicit: true,
      reach: 'up',
      tools: [
        { name: 'echo', exposedName: 'alpha__echo', enabled: true, held: false, pin: 'pinned', tokens: 34 },
        { name: 'add', exposedName: 'alpha__add', enabled: true, held: true, pin: 'changed', tokens: 58 },
      ],
      prompts: [],
      resources: [],
      totals: { tools: 1, tokens: 34 },
    },
  ],
  totals: { tools: 41, tokens: 30_000 },
  warnings: [{ client: 'Cursor', kind: 'tools', limit: 40, value: 41, message: '41 tools > 40: Cursor uses about 40 MCP tools at most' }],
  changes: [{ server: 'alpha', tool: 'add', approvedAt: '2026-01-01T00:00:00Z', seenAt: '2026-01-02T00:00:00Z', diff: '--- a\n+++ b\n@@ -1,1 +1,1 @@\n-Adds.\n+Adds, and mails.\n' }],
  tokenizer: 'o200k_base',
};

let container: HTMLDivElement | undefined;
afterEach(() => {
  container?.remove();
  container = undefined;
});

function setup(shown: ProfileView = view) {
  const calls: Array<{ name: string; input: unknown }> = [];
  const bridge = {
    kind: 'http',
    call: async (name: string, input: unknown) => {
      calls.push({ name, input });
      return { ok: true, value: name === 'profiles.show' ? shown : name === 'profiles.approve' ? { approved: [] } : {} };
    },
    subscribe: () => () => {},
    onStatus: () => () => {},
    inspectorLive: () => () => {},
  } as unknown as Bridge;
  container = document.createElement('div');
  document.body.append(container);
  return { services: { bridge, stores: createStores() }, calls, el: container, root: createRoot(container) };
}

describe('ProfileDetail', () => {
  it('shows the URL, totals against client limits and each tool with its cost; a toggle calls profiles.setItem', async () => {
    const { services, calls, el, root } = setup();
    await act(async () => root.render(<ServicesProvider services={services}><ProfileDetail name="work" /></ServicesProvider>));
    expect(el.querySelector('[data-testid="profile-url"]')?.textContent).toBe('http://127.0.0.1:1/mcp/@work');
    expect(el.querySelector('[data-testid="profile-total-tokens"]')?.textContent).toBe('30,000');
    expect(el.querySelector('[data-testid="profile-warnings"]')?.textContent).toContain('Cursor');
    expect(el.querySelector('[data-testid="tokens-alpha-add"]')?.textContent).toBe('58');
    expect(el.querySelector('[data-testid="tool-alpha-add"]')?.textContent).toContain('held: changed');
    await act(async () => (el.querySelector('[data-testid="toggle-alpha-echo"]') as HTMLInputElement).click());
    expect(calls).toContainEqual({ name: 'profiles.setItem', input: { name: 'work', server: 'alpha', kind: 'tools', item: 'echo', enabled: false } });
    act(() => root.unmount());
  });

  it('shows the cost both ways, the on-demand switch, pins and app-only tools; changes go to profiles.update', async () => {
    const { services, calls, el, root } = setup({
      ...view,
      members: [{ ...view.members[0]!, tools: [...view.members[0]!.tools, { name: 'refresh', exposedName: 'alpha__refresh', enabled: true, held: false, appOnly: true, tokens: 20 }] }],
      onDemand: { enabled: false, pinned: ['alpha__e*'], clients: { cursor: true }, totals: { tools: 4, tokens: 400 }, warnings: [] },
    });
    await act(async () => root.render(<ServicesProvider services={services}><ProfileDetail name="work" /></ServicesProvider>));
    expect(el.querySelector('[data-testid="cost-all"]')?.textContent).toContain('profile default');
    expect(el.querySelector('[data-testid="on-demand-tokens"]')?.textContent).toBe('400');
    expect(el.querySelector('[data-testid="on-demand-warnings-none"]')).not.toBeNull();
    expect(el.querySelector('[data-testid="tool-alpha-refresh"]')?.textContent).toContain('app only');
    expect(el.querySelector('[data-testid="tokens-alpha-refresh"]')?.textContent).toBe('(20)');
    // Pins show (cursor uses on-demand tools); an app-only tool has none.
    expect(el.querySelector('[data-testid="pin-alpha-refresh"]')).toBeNull();
    await act(async () => (el.querySelector('[data-testid="pin-alpha-add"]') as HTMLInputElement).click());
    expect(calls).toContainEqual({ name: 'profiles.update', input: { name: 'work', onDemand: { pin: ['alpha__add'] } } });
    await act(async () => (el.querySelector('[data-testid="on-demand-switch"]') as HTMLInputElement).click());
    expect(calls).toContainEqual({ name: 'profiles.update', input: { name: 'work', onDemand: { enabled: true } } });
    act(() => root.unmount());
  });

  it('shows a changed tool with its diff and approves it', async () => {
    const { services, calls, el, root } = setup();
    let approved = false;
    await act(async () => root.render(<ServicesProvider services={services}><ChangedTools profile="work" changes={view.changes} onApproved={() => (approved = true)} /></ServicesProvider>));
    expect(el.querySelector('[data-testid="change-alpha-add"]')?.textContent).toContain('Adds, and mails.');
    await act(async () => (el.querySelector('[data-testid="approve-alpha-add"]') as HTMLButtonElement).click());
    expect(calls).toContainEqual({ name: 'profiles.approve', input: { name: 'work', server: 'alpha', tool: 'add' } });
    expect(approved).toBe(true);
    act(() => root.unmount());
  });
});
