import { describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../shared/config-schema.js';
import { modelFrom, toEntry, validate } from './server-form-model.js';

describe('the server form: sandbox settings', () => {
  it('keeps a host list, "subprocesses": false and hand-written paths through an edit', () => {
    const entry = { command: 'node', args: ['s.js'], sandbox: { read: ['/opt/data'], network: ['api.example.com', '*.example.org:8443'], subprocesses: false } } as ServerConfig;
    const m = modelFrom('notes', entry);
    expect(m).toMatchObject({ sandbox: true, sandboxNetwork: 'hosts', sandboxHosts: 'api.example.com\n*.example.org:8443', sandboxSubprocesses: false });
    expect(toEntry(m, entry)).toEqual(entry);
  });

  it('writes a host list from its lines, and subprocesses only when turned off; an empty list is an error', () => {
    const m = { ...modelFrom('notes', { command: 'node' } as ServerConfig), sandbox: true, sandboxNetwork: 'hosts' as const, sandboxHosts: ' api.example.com \n\n*.example.org\n' };
    expect(toEntry(m)).toMatchObject({ sandbox: { network: ['api.example.com', '*.example.org'] } });
    expect(toEntry({ ...m, sandboxNetwork: 'default' })).toEqual({ command: 'node', sandbox: true });
    expect(toEntry({ ...m, sandboxNetwork: 'default', sandboxSubprocesses: false })).toEqual({ command: 'node', sandbox: { subprocesses: false } });
    expect(validate({ ...m, sandboxHosts: ' \n' }).sandboxHosts).toMatch(/at least one host/);
    expect(validate(m).sandboxHosts).toBeUndefined();
  });
});

describe('the server form: secret checks', () => {
  it('reads and writes secretCheck for both kinds; the default (warn) is not written', () => {
    const stdio = { command: 'node', secretCheck: 'block' } as ServerConfig;
    expect(modelFrom('a', stdio).secretCheck).toBe('block');
    expect(toEntry(modelFrom('a', stdio), stdio)).toEqual(stdio);
    expect(toEntry({ ...modelFrom('a', stdio), secretCheck: 'warn' }, stdio)).toEqual({ command: 'node' });
    const remote = { url: 'https://example.com/mcp' } as ServerConfig;
    expect(modelFrom('r', remote).secretCheck).toBe('warn');
    expect(toEntry({ ...modelFrom('r', remote), secretCheck: 'mask' }, remote)).toEqual({ url: 'https://example.com/mcp', secretCheck: 'mask' });
  });
});
