// @ts-check
/**
 * The targets of bench/run.mjs that are not the hub: the SDK's own Streamable HTTP server (the
 * floor, its JSON-answering variant and the 2026-07-28 `createMcpHandler`), and the peer
 * gateways supergateway and mcp-proxy in front of the stdio echo server.
 */
import path from 'node:path';
import { BENCH, NODE, REPO, SDK_HTTP } from '../lib/paths.mjs';
import { freePort, startProcess } from '../lib/proc.mjs';
import { ECHO_SHELL, echoArgs, stopper, waitReady } from './common.mjs';
import { peerBin } from './peers.mjs';

/** @typedef {import('./common.mjs').Target} Target */
/** @typedef {import('./peers.mjs').PeerInfo} PeerInfo */

/** @param {boolean | 'modern'} json @returns {Target['start']} */
export function startSdkHttp(json) {
  return () => startSdkHttpServer(json);
}

/**
 * @param {boolean | 'modern'} json true: JSON answers; 'modern': createMcpHandler
 * @param {{ nodeArgs?: string[], ipc?: boolean }} [extra] node flags (the memory workload's probe) and an IPC channel
 * @returns {Promise<import('./common.mjs').Running>}
 */
export async function startSdkHttpServer(json, extra = {}) {
  /** @type {number | undefined} */
  let port;
  const proc = startProcess(
    'SDK http server',
    NODE,
    [
      ...(extra.nodeArgs ?? []),
      SDK_HTTP,
      '--port',
      '0',
      ...(json === 'modern' ? ['--modern'] : json ? ['--json'] : []),
    ],
    {
      cwd: REPO,
      ipc: extra.ipc,
      onLine: (line) => {
        const m = /^listening (\d+)/.exec(line);
        if (m) port = Number(m[1]);
      },
    },
  );
  await waitReady(proc, () => (port ? `http://127.0.0.1:${port}/health` : undefined)).catch(
    async (err) => {
      await stopper(proc)();
      throw err;
    },
  );
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    proc,
    ...(json === 'modern' ? { era: /** @type {const} */ ('modern') } : {}),
    stop: stopper(proc),
  };
}

/** @param {Record<string, PeerInfo>} peers @param {boolean} stateful @returns {Target['start']} */
export function startSupergateway(peers, stateful) {
  return async () => {
    const port = await freePort();
    // supergateway has no host flag and binds every interface: pin it to loopback with a preload.
    const args = [
      '--import',
      path.join(BENCH, 'lib', 'loopback-only.mjs'),
      peerBin(peers, 'supergateway'),
      '--stdio',
      ECHO_SHELL,
      '--outputTransport',
      'streamableHttp',
      '--port',
      String(port),
      '--logLevel',
      'none',
      '--healthEndpoint',
      '/healthz',
    ];
    if (stateful) args.push('--stateful');
    const proc = startProcess(stateful ? 'supergateway --stateful' : 'supergateway', NODE, args, {
      cwd: REPO,
    });
    await waitReady(proc, () => `http://127.0.0.1:${port}/healthz`).catch(async (err) => {
      await stopper(proc)();
      throw err;
    });
    return { url: `http://127.0.0.1:${port}/mcp`, proc, stop: stopper(proc) };
  };
}

/** @param {Record<string, PeerInfo>} peers @returns {Target['start']} */
export function startMcpProxy(peers) {
  return async () => {
    const port = await freePort();
    const args = [
      peerBin(peers, 'mcp-proxy'),
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--server',
      'stream',
      '--',
      NODE,
      ...echoArgs,
    ];
    const proc = startProcess('mcp-proxy', NODE, args, { cwd: REPO });
    await waitReady(proc, () => `http://127.0.0.1:${port}/ping`).catch(async (err) => {
      await stopper(proc)();
      throw err;
    });
    return { url: `http://127.0.0.1:${port}/mcp`, proc, stop: stopper(proc) };
  };
}
