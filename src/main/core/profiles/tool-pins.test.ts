import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addLogScrubber, createLogger } from '../log/logger.js';
import { toolDigest, type ToolDefinition } from './tool-digest.js';
import { ToolPins } from './tool-pins.js';

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const logger = createLogger('test');
const tool = (description: string): ToolDefinition => ({ name: 'add', description, inputSchema: { type: 'object', properties: { a: { type: 'number' } } } });
const check = (pins: ToolPins, t: ToolDefinition) => pins.check('work', 'alpha', t, toolDigest(t));

describe('tool pins', () => {
  it('holds the first tools of a pending server (installed from the catalog) until approved; the mark is on disk at once', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pins-'));
    const file = path.join(dir, 'tool-pins.json');
    const pins = await ToolPins.open(file, logger);
    expect(check(pins, tool('Adds.'))).toBe('new');
    await pins.markPending('alpha');
    // Written before markPending returns: the entry that starts the server comes after it.
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ pending: { alpha: expect.any(String) } });
    expect(pins.known('work', 'alpha', 'add')).toBe(false);
    expect(check(pins, tool('Adds.'))).toBe('pending');
    expect(check(pins, tool('Adds.'))).toBe('pending');
    expect(pins.changes('work')).toMatchObject([{ server: 'alpha', tool: 'add' }]);
    expect(pins.approve('work', 'alpha')).toEqual([{ server: 'alpha', tool: 'add' }]);
    expect(check(pins, tool('Adds.'))).toBe('pinned');
    // The first approval ends the mark: another profile pins the server's tools as usual.
    expect(pins.isPending('alpha')).toBe(false);
    expect(pins.check('home', 'alpha', tool('Adds.'), toolDigest(tool('Adds.')))).toBe('new');
    const restore = await pins.markPending('beta');
    await restore();
    expect(pins.isPending('beta')).toBe(false);
  });

  it('refuses to mark a server pending when the file cannot be written, changing nothing', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pins-'));
    // A directory where the file should be: every write fails (as root too, unlike a chmod).
    const file = path.join(dir, 'tool-pins.json');
    const pins = await ToolPins.open(file, logger);
    expect(check(pins, tool('Adds.'))).toBe('new');
    await mkdir(file);
    await expect(pins.markPending('alpha')).rejects.toThrow(`could not write ${file}: `);
    expect(pins.isPending('alpha')).toBe(false);
    expect(pins.known('work', 'alpha', 'add')).toBe(true);
    expect(check(pins, tool('Adds.'))).toBe('pinned');
  });

  it('puts the approved pins and the earlier mark back when asked (an update whose config write failed)', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pins-'));
    const file = path.join(dir, 'tool-pins.json');
    const pins = await ToolPins.open(file, logger);
    expect(check(pins, tool('Adds.'))).toBe('new');
    expect(pins.check('home', 'alpha', tool('Adds.'), toolDigest(tool('Adds.')))).toBe('new');
    const restore = await pins.markPending('alpha');
    expect(pins.known('work', 'alpha', 'add')).toBe(false);
    // A profile that had no record of it sees its tools meanwhile: recorded pending, then forgotten again.
    expect(pins.check('third', 'alpha', tool('Adds.'), toolDigest(tool('Adds.')))).toBe('pending');
    await restore();
    expect(pins.isPending('alpha')).toBe(false);
    expect(check(pins, tool('Adds.'))).toBe('pinned');
    expect(pins.known('home', 'alpha', 'add')).toBe(true);
    expect(pins.known('third', 'alpha', 'add')).toBe(false);
    expect(pins.changes('third')).toEqual([]);
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as { pending?: Record<string, string>; profiles: Record<string, Record<string, unknown>> };
    expect(onDisk.pending?.alpha).toBeUndefined();
    expect(onDisk.profiles.work!.alpha).toMatchObject({ add: { digest: toolDigest(tool('Adds.')) } });
    expect(onDisk.profiles.third?.alpha).toBeUndefined();

    // An earlier mark (installed, not yet approved) stays after a failed update's restore.
    await pins.markPending('beta');
    const again = await pins.markPending('beta');
    await again();
    expect(pins.isPending('beta')).toBe(true);
  });

  it('pins a definition the first time, then tells it apart from a changed one until approved; kept on disk', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pins-'));
    const file = path.join(dir, 'tool-pins.json');
    const pins = await ToolPins.open(file, logger);
    const changes: string[] = [];
    pins.onChange((p) => changes.push(p));
    expect(check(pins, tool('Adds.'))).toBe('new');
    expect(check(pins, tool('Adds.'))).toBe('pinned');
    expect(check(pins, tool('Adds, and mails.'))).toBe('changed');
    expect(changes).toEqual(['work']);
    const [change] = pins.changes('work');
    expect(change).toMatchObject({ server: 'alpha', tool: 'add' });
    expect(change!.diff).toContain('-  Adds.');
    expect(change!.diff).toContain('+  Adds, and mails.');
    await pins.flush();

    const reopened = await ToolPins.open(file, logger);
    expect(check(reopened, tool('Adds, and mails.'))).toBe('changed');
    expect(reopened.approve('work', 'alpha')).toEqual([{ server: 'alpha', tool: 'add' }]);
    expect(check(reopened, tool('Adds, and mails.'))).toBe('pinned');
    expect(reopened.changes('work')).toEqual([]);
  });

  it('key order in a schema is not a change; a server going back to the approved definition clears the mark', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pins-'));
    const pins = await ToolPins.open(path.join(dir, 'p.json'), logger);
    check(pins, { name: 't', inputSchema: { type: 'object', properties: {} } });
    expect(check(pins, { inputSchema: { properties: {}, type: 'object' }, name: 't' })).toBe('pinned');
    check(pins, { name: 't', description: 'new' });
    expect(pins.changes('work')).toHaveLength(1);
    expect(check(pins, { name: 't', inputSchema: { type: 'object', properties: {} } })).toBe('pinned');
    expect(pins.changes('work')).toHaveLength(0);
  });

  it('stores no known secret value, and sets an unreadable file aside instead of failing', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pins-'));
    const file = path.join(dir, 'tool-pins.json');
    const off = addLogScrubber((text) => text.split('hunter2-secret').join('***'));
    try {
      const pins = await ToolPins.open(file, logger);
      check(pins, tool('Uses the key hunter2-secret'));
      await pins.flush();
      expect(await readFile(file, 'utf8')).not.toContain('hunter2-secret');
    } finally {
      off();
    }
    await writeFile(file, '{ not json');
    const pins = await ToolPins.open(file, logger);
    expect(check(pins, tool('x'))).toBe('new');
  });
});
