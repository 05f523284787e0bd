/**
 * Serves the built renderer (Vite's output in `dist/renderer`) read-only: files inside the root
 * only, a fixed content type per extension, hashed assets cached for good, everything else not.
 */
import { readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The Content-Type of a renderer file by its extension; undefined for one the UI never ships. */
export function contentTypeOf(file: string): string | undefined {
  return TYPES[path.extname(file).toLowerCase()];
}

/**
 * Where the built UI is: `<repo>/dist/renderer`. This module sits four levels below the package
 * root both as source (src/main/core/ui) and compiled (dist/main/core/ui), so one path serves both.
 */
export function defaultUiRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'dist', 'renderer');
}

export async function uiBuilt(root: string): Promise<boolean> {
  try {
    return (await stat(path.join(root, 'index.html'))).isFile();
  } catch {
    return false;
  }
}

/** Resolves a URL path below `root`; undefined for anything that would leave it. */
export function resolveInside(root: string, relative: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relative);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const full = path.resolve(root, '.' + path.posix.normalize('/' + decoded));
  return full === root || full.startsWith(root + path.sep) ? full : undefined;
}

/** Sends a file; false when there is none (the caller answers 404). */
export async function sendStatic(res: ServerResponse, file: string, headers: Record<string, string>): Promise<boolean> {
  let body: Buffer;
  try {
    const info = await stat(file);
    if (!info.isFile()) return false;
    body = await readFile(file);
  } catch {
    return false;
  }
  const type = contentTypeOf(file) ?? 'application/octet-stream';
  // Vite names built assets by content hash: they never change under the same name.
  const immutable = file.includes(`${path.sep}assets${path.sep}`);
  res.writeHead(200, {
    ...headers,
    'Content-Type': type,
    'Content-Length': String(body.length),
    'Cache-Control': headers['Cache-Control'] ?? (immutable ? 'public, max-age=31536000, immutable' : 'no-cache'),
  });
  res.end(body);
  return true;
}
