// @ts-check
/** The machine a run of bench/run.mjs measured on, and the build and packages it measured. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from '../lib/paths.mjs';

export function machineInfo() {
  const cpu = os.cpus();
  return {
    cpus: cpu.length,
    cpuModel: cpu[0]?.model,
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
  };
}

/**
 * @param {Record<string, import('../targets/peers.mjs').PeerInfo>} peers
 * @param {string | undefined} hubDir  --hub-dir
 */
export function versionsInfo(peers, hubDir) {
  return {
    patchbay: JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).version,
    hubDir: hubDir ? path.resolve(hubDir) : undefined,
    commit: spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: REPO,
      encoding: 'utf8',
    }).stdout?.trim(),
    /** Uncommitted changes under src/ when the run started (the build may include them). */
    srcDirty:
      (
        spawnSync('git', ['status', '--porcelain', '--', 'src'], { cwd: REPO, encoding: 'utf8' })
          .stdout ?? ''
      ).trim() !== '',
    sdkClient: pkgVersion('@modelcontextprotocol/client'),
    sdkServer: pkgVersion('@modelcontextprotocol/server'),
    sdkNode: pkgVersion('@modelcontextprotocol/node'),
    supergateway: peers.supergateway?.ok ? peers.supergateway.version : null,
    mcpProxy: peers['mcp-proxy']?.ok ? peers['mcp-proxy'].version : null,
  };
}

/** @param {string} name */
function pkgVersion(name) {
  try {
    return JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8'))
      .version;
  } catch {
    return null;
  }
}
