/**
 * Finding a client on this machine and reading its config file: which of its candidate paths is
 * live (Claude Desktop's MSIX one included), whether it is installed, and the file's exact bytes
 * (kept for backups and byte-exact comparisons) with the parsed content.
 */
import { access, readFile, stat } from 'node:fs/promises';
import { errCode } from '../fs/err-code.js';
import { claudeDesktopPaths, type ClientDef } from './client-defs.js';
import { homePath, hostPath, onDisk, type ClientHost } from './client-host.js';
import { ClientsError } from './clients-error.js';
import { containerEntries, parseClientText, type ParseResult } from './formats/format.js';
import type { ReadEntry } from './neutral-entry.js';

export interface ClientFile {
  def: ClientDef;
  path: string;
  exists: boolean;
  /** The bytes on disk (undefined when the file does not exist). */
  bytes: Buffer | undefined;
  /** The text edits start from: the file without its BOM, or the client's starting text when missing or empty. */
  text: string;
  bom: boolean;
  parse: ParseResult;
}

export interface ClientEntry {
  name: string;
  raw: unknown;
  entry: ReadEntry;
}

export async function exists(file: string, host?: ClientHost): Promise<boolean> {
  try {
    await access(host ? onDisk(host, file) : file);
    return true;
  } catch {
    return false;
  }
}

/** The config file the client reads now: the first candidate that exists, else the first. */
export async function locateConfig(def: ClientDef, host: ClientHost): Promise<string> {
  if (def.id === 'claude-desktop' && host.platform === 'win32') {
    // The Store (MSIX) build reads a virtualised copy; writes to %APPDATA%\Claude are ignored by it.
    const paths = claudeDesktopPaths(host);
    if (paths.msix && paths.msixPackageDir && (await exists(paths.msixPackageDir, host))) return paths.msix;
    return paths.classic;
  }
  const candidates = def.configPaths(host);
  for (const candidate of candidates) if (await exists(candidate, host)) return candidate;
  return candidates[0]!;
}

export async function isInstalled(def: ClientDef, host: ClientHost, configPath: string): Promise<boolean> {
  for (const marker of [configPath, ...def.installMarkers(host)]) if (marker && (await exists(marker, host))) return true;
  return (await findBinary(def, host)) !== undefined;
}

async function findBinary(def: ClientDef, host: ClientHost): Promise<string | undefined> {
  const p = hostPath(host);
  const dirs = (host.env.PATH ?? host.env.Path ?? '').split(host.platform === 'win32' ? ';' : ':').filter(Boolean);
  const suffixes = host.platform === 'win32' ? ['.exe', '.cmd', '.bat', ''] : [''];
  for (const bin of def.binaries ?? []) {
    for (const dir of dirs) {
      for (const suffix of suffixes) {
        const candidate = p.join(dir, bin + suffix);
        try {
          if ((await stat(onDisk(host, candidate))).isFile()) return candidate;
        } catch {
          // not here
        }
      }
    }
  }
  return undefined;
}

export function emptyText(def: ClientDef): string {
  if (def.newFileText !== undefined) return def.newFileText;
  return def.format === 'json' || def.format === 'jsonc' ? '{}\n' : '';
}

export async function readClientFile(def: ClientDef, file: string, host: ClientHost): Promise<ClientFile> {
  let bytes: Buffer | undefined;
  try {
    bytes = await readFile(onDisk(host, file));
  } catch (err) {
    const code = errCode(err);
    if (code !== 'ENOENT') throw new ClientsError('client_config_unreadable', `cannot read ${file} (${code ?? String(err)}); check its permissions`);
  }
  if (!bytes) {
    // Continue still reads its deprecated config.json when there is no config.yaml: a new
    // config.yaml would silently replace the person's whole setup.
    if (def.id === 'continue' && (await exists(homePath(host, '.continue', 'config.json'), host))) {
      throw new ClientsError(
        'client_config_unsupported',
        `Continue is using ${homePath(host, '.continue', 'config.json')} (the deprecated JSON format). Patchbay writes config.yaml only; convert your config to config.yaml first (Continue's docs describe how).`,
      );
    }
    const text = emptyText(def);
    return { def, path: file, exists: false, bytes: undefined, text, bom: false, parse: parseClientText(def.format, text) };
  }
  let text = bytes.toString('utf8');
  const bom = text.charCodeAt(0) === 0xfeff;
  if (bom) text = text.slice(1);
  // An empty file is read by most clients as "no servers"; start it like a new one.
  if (text.trim() === '') text = emptyText(def);
  return { def, path: file, exists: true, bytes, text, bom, parse: parseClientText(def.format, text) };
}

/** The client's entries, read into neutral form; a file that does not parse is an error. */
export function clientEntries(file: ClientFile): ClientEntry[] {
  const invalid = invalidReason(file);
  if (invalid) throw new ClientsError('client_config_invalid', invalid);
  if (!file.parse.ok) throw new ClientsError('client_config_invalid', file.parse.message);
  const listed = containerEntries(file.parse.data, file.def);
  if (!listed.ok) throw new ClientsError('client_config_invalid', listed.message);
  return listed.entries.map(([name, raw]) => ({ name, raw, entry: file.def.shape.read(raw) }));
}

/** Why the file cannot be used (parse error or a wrong container type), or undefined. */
export function invalidReason(file: ClientFile): string | undefined {
  const what = `${file.path} is not valid ${file.def.format.toUpperCase()}`;
  if (!file.parse.ok) return `${what}: ${file.parse.message}. Patchbay leaves it untouched; fix it (or restore a backup) and try again.`;
  const listed = containerEntries(file.parse.data, file.def);
  if (!listed.ok) return `${file.path}: ${listed.message}. Patchbay leaves it untouched; fix it and try again.`;
  return undefined;
}
