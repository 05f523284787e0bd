/**
 * Test helpers for client-config work: a temporary machine per platform (Windows paths are mapped
 * into the temp dir, so `C:\Users\ada\AppData\…` is a real file on Linux), a clients service over
 * a temp data dir, and per-format parsers and sample files for every client.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import YAML from 'yaml';
import { ConfigStore } from '../../src/main/core/config/config-store.js';
import type { ClientDef } from '../../src/main/core/clients/client-defs.js';
import type { ClientHost } from '../../src/main/core/clients/client-host.js';
import { createClientsRuntime, type ClientsRuntime } from '../../src/main/core/clients/clients-runtime.js';
import { FileSecretStore } from '../../src/main/core/secrets/file-secret-store.js';

export const PLATFORMS = ['darwin', 'win32', 'linux'] as const;
export type TestPlatform = (typeof PLATFORMS)[number];

export const TEST_TOKEN = 'T'.repeat(43);
export const TEST_LAUNCHER = { command: '/opt/node/bin/node', args: ['/opt/patchbay/bin/patchbay.js'] };

export interface TempMachine {
  root: string;
  host: ClientHost;
  /** The on-disk path of a host path. */
  disk(hostPath: string): string;
  dataDir: string;
  cleanup(): Promise<void>;
}

export async function tempMachine(platform: TestPlatform): Promise<TempMachine> {
  const root = await mkdtemp(path.join(os.tmpdir(), `pb-clients-${platform}-`));
  const dataDir = path.join(root, 'data');
  let host: ClientHost;
  if (platform === 'win32') {
    const toDisk = (p: string): string => path.join(root, 'C', ...p.replace(/^[A-Za-z]:/, '').split(/[\\/]+/).filter(Boolean));
    host = {
      platform,
      home: 'C:\\Users\\ada',
      env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming', LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local', USERPROFILE: 'C:\\Users\\ada', PATH: '' },
      fsPath: toDisk,
    };
  } else {
    host = { platform, home: path.join(root, platform === 'darwin' ? 'Users' : 'home', 'ada'), env: { PATH: '' } };
  }
  const disk = (p: string): string => (host.fsPath ? host.fsPath(p) : p);
  await mkdir(disk(host.home), { recursive: true });
  return { root, host, disk, dataDir, cleanup: () => rm(root, { recursive: true, force: true }) };
}

export interface TestClients extends ClientsRuntime {
  config: ConfigStore;
  close(): Promise<void>;
}

/** A clients runtime over a temp data dir with the given Patchbay servers. */
export interface TestClientsOptions {
  port?: number;
  launcher?: { command: string; args: string[] };
  /** false: run as the CLI does (no engine in this process; the hub is found through hub.json). */
  engine?: boolean;
  hubPort?: number;
  loginPath?: string;
  desktopPath?: string;
}

export async function testClients(machine: TempMachine, servers: Record<string, unknown>, extra: TestClientsOptions = {}): Promise<TestClients> {
  await mkdir(machine.dataDir, { recursive: true });
  const configFile = path.join(machine.dataDir, 'config.json');
  await writeFile(configFile, JSON.stringify({ mcpServers: servers, ...(extra.hubPort !== undefined ? { hub: { port: extra.hubPort } } : {}) }, null, 2));
  // Kept when it exists: a test may have rotated it.
  await writeFile(path.join(machine.dataDir, 'hub-token'), TEST_TOKEN + '\n', { mode: 0o600, flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  const config = await ConfigStore.open(configFile);
  const secrets = await FileSecretStore.open(path.join(machine.dataDir, 'secrets.json'));
  const runtime = createClientsRuntime({
    dataDir: machine.dataDir,
    configFile,
    config,
    secrets,
    host: machine.host,
    launcher: extra.launcher ?? TEST_LAUNCHER,
    ...(extra.engine === false ? {} : { engine: { port: extra.port ?? 45678, url: `http://127.0.0.1:${extra.port ?? 45678}` } }),
    loginPath: async () => extra.loginPath,
    desktopPath: extra.desktopPath ?? '',
  });
  return {
    ...runtime,
    config,
    close: async () => {
      await secrets.close();
      await config.close();
    },
  };
}

/** Parses a client file with a real parser for its format. */
export function parseWithRealParser(def: ClientDef, text: string): Record<string, unknown> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  switch (def.format) {
    case 'json':
      return JSON.parse(body) as Record<string, unknown>;
    case 'jsonc': {
      const errors: ParseError[] = [];
      const data = parseJsonc(body, errors, { allowTrailingComma: true }) as Record<string, unknown>;
      if (errors.length > 0) throw new Error(`JSONC errors: ${JSON.stringify(errors)}`);
      return data;
    }
    case 'toml':
      return parseToml(body) as Record<string, unknown>;
    case 'yaml':
      return (YAML.parse(body) ?? {}) as Record<string, unknown>;
  }
}

/** The raw entries of the servers container, by name. */
export function containerOf(def: ClientDef, data: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const container = data[def.key];
  if (def.container === 'list') {
    const out: Record<string, Record<string, unknown>> = {};
    for (const item of (container ?? []) as Array<Record<string, unknown>>) out[String(item.name)] = item;
    return out;
  }
  return (container ?? {}) as Record<string, Record<string, unknown>>;
}

/** An existing config with a server of the client's own and keys Patchbay knows nothing about. */
export function existingFile(def: ClientDef, withComments: boolean): string {
  const other = def.shape.writeStdio!({ kind: 'stdio', command: 'npx', args: ['-y', '@acme/server'], env: { LOG_LEVEL: 'debug' } }, 'other');
  const otherWithUnknown = { ...other, 'x-unknown': { nested: [1, 2, 3] } };
  if (def.format === 'json' || def.format === 'jsonc') {
    const container = def.container === 'map' ? { other: otherWithUnknown } : [otherWithUnknown];
    const text = JSON.stringify({ theme: 'dark', [def.key]: container, zzz: { keep: true } }, null, 2) + '\n';
    if (!withComments) return text;
    return text.replace('{\n', '{\n  // my settings, keep this comment\n').replace('"zzz": {', '/* block comment */ "zzz": {');
  }
  if (def.format === 'toml') {
    return [
      ...(withComments ? ['# Codex config, keep this comment'] : []),
      'model = "o3"' + (withComments ? '  # trailing comment' : ''),
      '',
      `[${def.key}.other]`,
      'command = "npx"',
      'args = ["-y", "@acme/server"]',
      'x_unknown = { nested = [1, 2, 3] }',
      '',
      `[${def.key}.other.env]`,
      'LOG_LEVEL = "debug"',
      '',
      ...(withComments ? ['# about the UI'] : []),
      '[tui]',
      'notifications = true',
      '',
    ].join('\n');
  }
  const container = def.container === 'map' ? { other: otherWithUnknown } : [otherWithUnknown];
  const body = YAML.stringify({ theme: 'dark', [def.key]: container, zzz: { keep: true } }, { indentSeq: def.id !== 'goose' });
  return withComments ? `# my settings, keep this comment\n${body.replace('zzz:', '# about zzz\nzzz:')}` : body;
}

/** Text that does not parse in the client's format. */
export function brokenFile(def: ClientDef): string {
  if (def.format === 'toml') return 'model = "o3\n[mcp_servers.x\n';
  if (def.format === 'yaml') return `${def.key}:\n  a: [1, 2\n  b: }\n`;
  return `{\n  "${def.key}": {\n    "a": { "command": "x", }\n  \n`;
}
