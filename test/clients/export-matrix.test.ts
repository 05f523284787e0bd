/**
 * Export into every client's config, on every platform (temp home; Windows paths mapped into the
 * temp dir): a missing file, a file with other servers and unknown keys, twice, with comments,
 * an invalid file; backup and rollback; each result read back with a real parser.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLIENTS, type ClientDef } from '../../src/main/core/clients/client-defs.js';
import { ClientsError } from '../../src/main/core/clients/clients-error.js';
import { recognise } from '../../src/main/core/clients/patchbay-entry.js';
import { setLogSink } from '../../src/main/core/log/logger.js';
import { brokenFile, containerOf, existingFile, parseWithRealParser, PLATFORMS, tempMachine, testClients, TEST_LAUNCHER, TEST_TOKEN, type TempMachine, type TestClients } from './client-fixtures.js';

const SERVERS = {
  fs: { command: 'node', args: ['server.js'] },
  web: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${secret:WEB}' } },
  off: { command: 'x', disabled: true },
};

/** True when every character of `a` appears in `b` in order: an edit that only inserted text. */
function onlyInserted(a: string, b: string): boolean {
  let i = 0;
  for (let j = 0; j < b.length && i < a.length; j++) if (a[i] === b[j]) i++;
  return i === a.length;
}

async function rejection(promise: Promise<unknown>): Promise<ClientsError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ClientsError) return err;
    throw err;
  }
  throw new Error('expected a ClientsError');
}

beforeEach(() => setLogSink(() => undefined));
afterEach(() => setLogSink(undefined));

describe.each(PLATFORMS)('export on %s', (platform) => {
  describe.each(CLIENTS.map((def) => [def.id, def] as [string, ClientDef]))('%s', (_id, def) => {
    let machine: TempMachine;
    let clients: TestClients;
    let file: string;

    beforeEach(async () => {
      machine = await tempMachine(platform);
      clients = await testClients(machine, SERVERS);
      file = await clients.service.configPath(def.id);
    });
    afterEach(async () => {
      await clients.close();
      await machine.cleanup();
    });

    const read = (): Promise<string> => readFile(machine.disk(file), 'utf8');
    const put = async (text: string): Promise<void> => {
      await mkdir(path.dirname(machine.disk(file)), { recursive: true });
      await writeFile(machine.disk(file), text);
    };
    const entriesOf = (text: string): Record<string, Record<string, unknown>> => containerOf(def, parseWithRealParser(def, text));

    it('writes the config path of this platform', () => {
      const sep = platform === 'win32' ? '\\' : '/';
      expect(file.startsWith(platform === 'win32' ? 'C:\\Users\\ada\\' : machine.host.home + sep)).toBe(true);
      if (def.id === 'claude-desktop') {
        const expected = { darwin: 'Library/Application Support/Claude', linux: '.config/Claude', win32: 'AppData\\Roaming\\Claude' }[platform];
        expect(file).toContain(expected);
      }
    });

    it('exports into a missing file: every enabled server, in the client’s own shape', async () => {
      const outcome = await clients.service.export(def.id);
      expect(outcome.written).toBe(true);
      expect(outcome.diff).not.toContain(TEST_TOKEN);
      expect(outcome.diff).not.toMatch(/pbc_/);
      const entries = entriesOf(await read());
      expect(Object.keys(entries).sort()).toEqual(['fs', 'web']);
      for (const [name, raw] of Object.entries(entries)) {
        const entry = def.shape.read(raw);
        expect(entry.kind).toBe(def.kinds[0]);
        if (entry.kind === 'unsupported') throw new Error(entry.reason);
        expect(recognise(entry, { port: 45678, token: TEST_TOKEN })?.serverId).toBe(name);
        if (entry.kind === 'stdio') {
          expect(entry.command).toBe(TEST_LAUNCHER.command);
          expect(entry.args).toEqual([...TEST_LAUNCHER.args, 'relay', name]);
          expect(entry.env.PATCHBAY_HOME).toBe(machine.dataDir);
        } else {
          expect(entry.url).toBe(`http://127.0.0.1:45678/mcp/${name}`);
          // A client token of its own (issue 17), not the hub token.
          expect(entry.headers).toEqual({ Authorization: expect.stringMatching(/^Bearer pbc_[A-Za-z0-9_-]{43}$/) });
        }
      }
      // Nothing else is ever written: no secret of Patchbay's own servers.
      expect(await read()).not.toContain('${secret:');
    });

    it('keeps other servers and unknown keys, only inserting text', async () => {
      const before = existingFile(def, false);
      await put(before);
      await clients.service.export(def.id);
      const after = await read();
      expect(onlyInserted(before, after)).toBe(true);
      const old = parseWithRealParser(def, before);
      const now = parseWithRealParser(def, after);
      expect(now.theme).toEqual(old.theme);
      expect(now.zzz ?? now.tui).toEqual(old.zzz ?? old.tui);
      expect(entriesOf(after).other).toEqual(entriesOf(before).other);
      expect(Object.keys(entriesOf(after)).sort()).toEqual(['fs', 'other', 'web']);
    });

    it('is idempotent: a second export changes nothing and adds no duplicate', async () => {
      await put(existingFile(def, false));
      await clients.service.export(def.id);
      const first = await read();
      const again = await clients.service.export(def.id);
      expect(again.written).toBe(false);
      expect(again.changes.map((c) => c.action)).toEqual(['unchanged', 'unchanged']);
      expect(await read()).toBe(first);
      expect(Object.keys(entriesOf(first)).sort()).toEqual(['fs', 'other', 'web']);
    });

    it('updates its own entries when the hub moves or the relay path changes, never duplicating', async () => {
      await clients.service.export(def.id);
      await clients.close();
      clients = await testClients(machine, SERVERS, { port: 45999, launcher: { command: '/usr/local/bin/node', args: ['/srv/patchbay/bin/patchbay.js'] } });
      const outcome = await clients.service.export(def.id);
      expect(outcome.changes.map((c) => c.action)).toEqual(['update', 'update']);
      const entries = entriesOf(await read());
      expect(Object.keys(entries).sort()).toEqual(['fs', 'web']);
      const fs = def.shape.read(entries.fs);
      expect(fs.kind === 'stdio' ? fs.command : fs.kind === 'http' ? fs.url : '').toMatch(/\/usr\/local\/bin\/node|:45999\/mcp\/fs/);
    });

    it(def.format === 'json' ? 'refuses a file with comments (the client reads strict JSON)' : 'keeps comments', async () => {
      const before = existingFile(def, true);
      await put(before);
      if (def.format === 'json') {
        expect((await rejection(clients.service.export(def.id))).code).toBe('client_config_invalid');
        expect(await read()).toBe(before);
        return;
      }
      await clients.service.export(def.id);
      const after = await read();
      expect(after).toContain('keep this comment');
      expect(onlyInserted(before, after)).toBe(true);
      expect(Object.keys(entriesOf(after)).sort()).toEqual(['fs', 'other', 'web']);
    });

    it('refuses an invalid file and leaves it untouched', async () => {
      const before = brokenFile(def);
      await put(before);
      const err = await rejection(clients.service.export(def.id));
      expect(err.code).toBe('client_config_invalid');
      expect(err.message).toContain(file);
      expect(await read()).toBe(before);
      expect(await clients.service.backups(def.id)).toEqual([]);
      expect((await rejection(clients.service.previewExport(def.id))).code).toBe('client_config_invalid');
    });

    it('backs up and rolls back to the exact previous bytes (and removes a file it created)', async () => {
      const original = Buffer.from('\uFEFF' + existingFile(def, false).replace(/\n/g, '\r\n'), 'utf8');
      await mkdir(path.dirname(machine.disk(file)), { recursive: true });
      await writeFile(machine.disk(file), original);
      const outcome = await clients.service.export(def.id);
      expect(outcome.backupId).toBeDefined();
      const written = await readFile(machine.disk(file));
      expect(written.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      expect(written.toString('utf8').replace(/\r\n/g, '')).not.toContain('\n');
      const rolled = await clients.service.rollback(def.id);
      expect(rolled.restored).toBe(outcome.backupId);
      expect((await readFile(machine.disk(file))).equals(original)).toBe(true);
      // The rollback itself can be undone.
      await clients.service.rollback(def.id, rolled.backupId);
      expect((await readFile(machine.disk(file))).equals(written)).toBe(true);

      const other = await tempMachine(platform);
      const fresh = await testClients(other, SERVERS);
      try {
        const created = await fresh.service.export(def.id);
        const target = other.disk(created.file);
        expect(existsSync(target)).toBe(true);
        await fresh.service.rollback(def.id);
        expect(existsSync(target)).toBe(false);
      } finally {
        await fresh.close();
        await other.cleanup();
      }
    });
  });
});
