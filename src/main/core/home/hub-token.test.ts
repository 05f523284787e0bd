import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateHubToken, rotateHubToken } from './hub-token.js';
import { setLogSink } from '../log/logger.js';
import { skipNote } from '../../../../test/helpers/skip-note.js';

const posix = process.platform !== 'win32';
let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pb-token-'));
  file = path.join(dir, 'data', 'hub-token');
  setLogSink(() => undefined);
});
afterEach(async () => {
  setLogSink(undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('loadOrCreateHubToken', () => {
  it('creates a 256-bit base64url token once and returns it again', async () => {
    const token = await loadOrCreateHubToken(file);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(await loadOrCreateHubToken(file)).toBe(token);
    expect((await readFile(file, 'utf8')).trim()).toBe(token);
    expect(await readdir(path.dirname(file))).toEqual(['hub-token']);
  });

  it.skipIf(!posix)(skipNote(!posix, 'creates the file with mode 0600 and narrows a wider one', 'file modes are POSIX (Windows has ACLs)'), async () => {
    await loadOrCreateHubToken(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await chmod(file, 0o644);
    await loadOrCreateHubToken(file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('gives every concurrent caller in one process the same token', async () => {
    const tokens = await Promise.all(Array.from({ length: 20 }, () => loadOrCreateHubToken(file)));
    expect(new Set(tokens).size).toBe(1);
  });

  it('agrees on one token when several processes create it at once', async () => {
    // Real processes racing on the same missing file. Node 20 cannot import .ts, so the module
    // and its imports are transpiled (types stripped, nothing else) into the temp dir first.
    const lib = path.join(dir, 'lib');
    await transpile(path.dirname(import.meta.dirname), lib, [
      'home/hub-token.ts',
      'fs/atomic-write.ts',
      'fs/err-code.ts',
      'log/logger.ts',
    ]);
    const script = `const { loadOrCreateHubToken } = await import(${JSON.stringify(pathToFileURL(path.join(lib, 'home', 'hub-token.js')).href)});
      process.stdout.write(await loadOrCreateHubToken(process.argv[1]));`;
    const run = (): Promise<string> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, file], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.on('error', reject);
        child.on('exit', (code) =>
          code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`)),
        );
      });
    const tokens = await Promise.all([run(), run(), run(), run()]);
    expect(tokens[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(tokens).size).toBe(1);
    expect((await readFile(file, 'utf8')).trim()).toBe(tokens[0]);
    expect(await readdir(path.dirname(file))).toEqual(['hub-token']);
  });

  it('refuses a file that holds no valid token instead of silently replacing it', async () => {
    await loadOrCreateHubToken(file);
    await writeFile(file, 'short');
    await expect(loadOrCreateHubToken(file)).rejects.toThrow(/does not hold a valid token/);
  });
});

describe('rotateHubToken', () => {
  it('replaces the token atomically with mode 0600', async () => {
    const first = await loadOrCreateHubToken(file);
    const second = await rotateHubToken(file);
    expect(second).not.toBe(first);
    expect(await loadOrCreateHubToken(file)).toBe(second);
    if (posix) expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(path.dirname(file))).toEqual(['hub-token']);
  });
});

async function transpile(srcRoot: string, outRoot: string, files: string[]): Promise<void> {
  for (const rel of files) {
    const source = await readFile(path.join(srcRoot, rel), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    const out = path.join(outRoot, rel.replace(/\.ts$/, '.js'));
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, outputText);
  }
  await writeFile(path.join(outRoot, 'package.json'), '{"type": "module"}');
}
