import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scrubText, setLogSink, type LogRecord } from '../log/logger.js';
import { ClientTokenStore } from './client-tokens.js';

const posix = process.platform !== 'win32';
let dir: string;
let file: string;
let logs: LogRecord[];
const stores: ClientTokenStore[] = [];

async function open(watch = false, flushMs?: number): Promise<ClientTokenStore> {
  const store = await ClientTokenStore.open(file, { watch, ...(flushMs !== undefined ? { flushMs } : {}) });
  stores.push(store);
  return store;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pb-client-tokens-'));
  file = path.join(dir, 'data', 'client-tokens.json');
  logs = [];
  setLogSink((r) => logs.push(r));
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  setLogSink(undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('ClientTokenStore', () => {
  it('mints a 256-bit token whose value is stored nowhere, only its hash', async () => {
    const store = await open();
    const { token, info } = await store.mint({ client: 'cursor', label: 'Cursor', file: '/home/ada/.cursor/mcp.json' });
    expect(token).toMatch(/^pbc_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.slice(4), 'base64url')).toHaveLength(32);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.slice(4));
    expect(JSON.parse(text).tokens[0]).toMatchObject({ id: info.id, client: 'cursor', label: 'Cursor', hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    if (posix) expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(store.list()).toEqual([info]);
    expect(Object.keys(info)).not.toContain('hash');
    expect(JSON.stringify(logs)).not.toContain(token);
  });

  it('checks tokens: valid, revoked, unknown, and not a client token at all', async () => {
    const store = await open();
    const a = await store.mint({ client: 'cursor', label: 'Cursor', file: '/a' });
    const b = await store.mint({ client: 'vscode', label: 'VS Code', file: '/b' });
    expect(store.check(a.token)).toMatchObject({ state: 'valid', info: { id: a.info.id, label: 'Cursor' } });
    expect(await store.revoke(a.info.id)).toMatchObject({ id: a.info.id, revoked: expect.any(String) });
    expect(store.check(a.token)).toMatchObject({ state: 'revoked', info: { label: 'Cursor' } });
    expect(store.check(b.token)).toMatchObject({ state: 'valid' });
    expect(store.check('pbc_' + 'x'.repeat(43))).toEqual({ state: 'unknown' });
    expect(store.check('T'.repeat(43))).toBeUndefined();
    expect(await store.revoke('nope')).toBeUndefined();
    // Revoking again changes nothing.
    const first = store.list().find((t) => t.id === a.info.id)!.revoked;
    expect((await store.revoke(a.info.id))?.revoked).toBe(first);
  });

  it('notes uses in memory and writes lastUsed only when it flushes, not per check', async () => {
    const store = await open(false, 60_000);
    const { token, info } = await store.mint({ client: 'cursor', label: 'Cursor', file: '/a' });
    const before = await readFile(file, 'utf8');
    for (let i = 0; i < 100; i++) store.check(token);
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(store.list()[0]!.lastUsed).toEqual(expect.any(String));
    await store.flush();
    const written = JSON.parse(await readFile(file, 'utf8')).tokens[0];
    expect(written).toMatchObject({ id: info.id, lastUsed: store.list()[0]!.lastUsed });
  });

  it('sees what another process did: a token minted there at once, a revocation within moments', async () => {
    const hub = await open(true);
    const cli = await open();
    const { token, info } = await cli.mint({ client: 'cursor', label: 'Cursor', file: '/a' });
    // An unknown client token makes the hub look at the file again before it says no.
    expect(hub.check(token)).toMatchObject({ state: 'valid' });
    const changed = new Promise<void>((resolve) => hub.onChange(resolve));
    await cli.revoke(info.id);
    await changed;
    expect(hub.check(token)).toMatchObject({ state: 'revoked' });
  });

  it('loses no change when two processes write at once (a lock file orders them)', async () => {
    const a = await open();
    const b = await open();
    const minted = await Promise.all([...Array.from({ length: 5 }, (_, i) => a.mint({ client: 'c', label: `A${i}`, file: '/a' })), ...Array.from({ length: 5 }, (_, i) => b.mint({ client: 'c', label: `B${i}`, file: '/b' }))]);
    const fresh = await open();
    expect(fresh.list().map((t) => t.id).sort()).toEqual(minted.map((m) => m.info.id).sort());
    for (const m of minted) expect(fresh.check(m.token)).toMatchObject({ state: 'valid' });
  });

  it('retires the tokens a client file no longer holds, and only those', async () => {
    const store = await open();
    const old = await store.mint({ client: 'cursor', label: 'Cursor', file: '/a' });
    const kept = await store.mint({ client: 'cursor', label: 'Cursor', file: '/a' });
    const otherFile = await store.mint({ client: 'cursor', label: 'Cursor', file: '/project/.cursor/mcp.json' });
    const otherClient = await store.mint({ client: 'vscode', label: 'VS Code', file: '/a' });
    const retired = await store.retire('cursor', '/a', [kept.token]);
    expect(retired.map((t) => t.id)).toEqual([old.info.id]);
    expect(store.check(old.token)?.state).toBe('revoked');
    for (const t of [kept, otherFile, otherClient]) expect(store.check(t.token)?.state).toBe('valid');
    expect(store.validFor(kept.token, 'cursor', '/a')).toBeDefined();
    expect(store.validFor(kept.token, 'cursor', '/b')).toBeUndefined();
    expect(store.validFor(old.token, 'cursor', '/a')).toBeUndefined();
  });

  it('refuses a file that is not a token store, saying what to do', async () => {
    await (await open()).mint({ client: 'c', label: 'C', file: '/a' });
    await writeFile(file, '{"tokens": ');
    await expect(ClientTokenStore.open(file)).rejects.toThrow(/client-tokens\.json is not valid JSON .*export the clients again/);
  });

  it('keeps client tokens out of log lines', async () => {
    await open();
    const token = 'pbc_' + 'A'.repeat(43);
    expect(scrubText(`header Authorization: Bearer ${token}`)).toBe('header Authorization: Bearer pbc_[redacted]');
  });
});
