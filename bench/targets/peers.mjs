// @ts-check
/**
 * Peers (supergateway, mcp-proxy): installed under bench/.peers from its pinned package.json.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PEERS } from '../lib/paths.mjs';

/** @typedef {{ name: string, version: string, bin: string, ok: boolean, reason?: string }} PeerInfo */

/** @param {{ skipInstall: boolean }} o @returns {Record<string, PeerInfo>} */
export function ensurePeers(o) {
  const manifest = JSON.parse(readFileSync(path.join(PEERS, 'package.json'), 'utf8'));
  /** @type {Record<string, string>} */
  const pins = manifest.dependencies;
  const installed = (/** @type {string} */ name) => {
    try {
      return JSON.parse(
        readFileSync(path.join(PEERS, 'node_modules', name, 'package.json'), 'utf8'),
      ).version;
    } catch {
      return undefined;
    }
  };
  let installError;
  const missing = Object.entries(pins).filter(([name, v]) => installed(name) !== v);
  if (missing.length > 0 && !o.skipInstall) {
    console.error(
      `bench: installing peers into bench/.peers: ${missing.map(([n, v]) => `${n}@${v}`).join(', ')}`,
    );
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(
      npm,
      [
        'install',
        '--prefix',
        PEERS,
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
      ],
      {
        cwd: PEERS,
        encoding: 'utf8',
        timeout: 300_000,
      },
    );
    if (r.status !== 0)
      installError =
        (r.error?.message ?? r.stderr ?? '').trim().split('\n').slice(-3).join(' ') ||
        `npm exited with ${r.status}`;
  }
  /** @type {Record<string, PeerInfo>} */
  const out = {};
  for (const [name, version] of Object.entries(pins)) {
    const have = installed(name);
    let bin = '';
    try {
      const pkg = JSON.parse(
        readFileSync(path.join(PEERS, 'node_modules', name, 'package.json'), 'utf8'),
      );
      const rel = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[name];
      if (rel) bin = path.join(PEERS, 'node_modules', name, rel);
    } catch {
      // reported below
    }
    if (have === version && bin && existsSync(bin)) out[name] = { name, version, bin, ok: true };
    else
      out[name] = {
        name,
        version,
        bin,
        ok: false,
        reason:
          installError ??
          (have
            ? `installed ${have}, pinned ${version}`
            : `not installed (npm install --prefix bench/.peers)`),
      };
  }
  return out;
}

/** @param {Record<string, PeerInfo>} peers @param {string} name */
export function peerBin(peers, name) {
  const peer = peers[name];
  if (!peer?.ok) throw new Error(`${name} is not installed`);
  return peer.bin;
}
