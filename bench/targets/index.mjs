// @ts-check
/**
 * The targets bench/run.mjs drives the same workloads against, with the official SDK v2 client:
 *
 *   stdio                  the SDK client straight to bench/echo-server.mjs over stdio (no HTTP)
 *   sdk-http               the SDK's own Streamable HTTP server in a separate process (the floor)
 *   hub                    patchbay hub (separate process) → echo server, one child per session
 *   hub-shared             patchbay hub, `shared: true`: one child multiplexed across sessions
 *   hub-remote             patchbay hub → the floor's own server as a remote upstream
 *                          ({type: "http", url}): what the hub's remote client adds (issue 27)
 *   supergateway           supergateway, stdio → Streamable HTTP, its default (stateless) mode
 *   supergateway-stateful  supergateway --stateful (one child per session)
 *   mcp-proxy              punkpeye's mcp-proxy, stream endpoint (one shared child)
 *
 * and the 2026-07-28 ("modern") era, driven by the same client pinned to that revision:
 *
 *   sdk-modern             the SDK's own `createMcpHandler` (sessionless; the modern floor)
 *   hub-modern             patchbay hub → a dual-era echo server spoken to in 2026-07-28 (pass-through)
 *   hub-bridged            patchbay hub → the legacy echo server, bridged (a held 2025 session)
 *
 * and diagnostic rows that explain figures rather than compete:
 *
 *   sdk-http-json          the floor answering with application/json instead of SSE
 *   hub-nocapture          `hub` with the inspector's capture turned off (`inspector.enabled: false`)
 *   hub-otel               `hub` with telemetry on, exporting OTLP to a sink on loopback (issue 23)
 *   hub-otel-down          `hub` with telemetry on and the collector down (a closed port)
 *   hub-rawecho            the hub, one child per session, with a hand-rolled echo server that
 *                          boots fast (session workload only)
 *   hub-1spare             `hub` with its warm pool capped at one spare (`warmSpare: 1`, what the
 *                          hub did before the pool grew with demand; session workload only)
 *
 * and, with --baseline-dir, base, base-shared and base-nocapture: the hub rows for another build.
 * How each is started and stopped: ./hub.mjs (the hub) and ./servers.mjs (the rest). (The
 * issue's targets, the figures to reach, are another thing: bench/report/checks.mjs.)
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { NODE } from '../lib/paths.mjs';
import { sweepStrays } from '../lib/proc.mjs';
import { echoArgs } from './common.mjs';
import { startHub } from './hub.mjs';
import { startMcpProxy, startSdkHttp, startSupergateway } from './servers.mjs';

/**
 * @param {Record<string, import('./peers.mjs').PeerInfo>} peers
 * @param {string} [baselineDir] --baseline-dir
 * @returns {import('./common.mjs').Target[]}
 */
export function targets(peers, baselineDir) {
  const sg = peers.supergateway?.version ?? '?';
  const mp = peers['mcp-proxy']?.version ?? '?';
  return [
    {
      id: 'stdio',
      label: 'direct stdio (no HTTP)',
      start: async () => ({
        stdio: { command: NODE, args: echoArgs },
        stop: async () => void sweepStrays(),
      }),
    },
    { id: 'sdk-http', label: 'SDK Streamable HTTP server (floor)', start: startSdkHttp(false) },
    {
      id: 'sdk-http-json',
      label: 'SDK Streamable HTTP server, JSON responses (diagnostic)',
      workloads: ['latency', 'throughput', 'blob'],
      start: startSdkHttp(true),
    },
    { id: 'hub', label: 'patchbay hub, per-session child', start: startHub({ shared: false }) },
    { id: 'hub-shared', label: 'patchbay hub, shared child', start: startHub({ shared: true }) },
    {
      // Issue 27: the hub in front of the floor itself (a remote Streamable HTTP upstream), so
      // `--only sdk-http,hub-remote` shows what the hub's client for remote servers adds.
      id: 'hub-remote',
      label: 'patchbay hub → the SDK Streamable HTTP server as a remote upstream',
      workloads: ['latency', 'throughput', 'blob', 'blob-json', 'sessions'],
      start: startHub({ shared: false, remote: true }),
    },
    {
      id: 'hub-nocapture',
      label: 'patchbay hub, per-session child, inspector capture off (diagnostic)',
      workloads: ['latency', 'throughput', 'blob', 'blob-json'],
      start: startHub({ shared: false, inspector: { enabled: false } }),
    },
    {
      // OpenTelemetry on (issue 23): what exporting every call's spans and metrics costs, and
      // that a collector that is down costs no more. Compare with `hub` in the same run.
      id: 'hub-otel',
      label: 'patchbay hub, per-session child, telemetry on, OTLP to a loopback sink (diagnostic)',
      workloads: ['latency', 'throughput', 'blob'],
      start: startHub({ shared: false, telemetry: 'sink' }),
    },
    {
      id: 'hub-otel-down',
      label: 'patchbay hub, per-session child, telemetry on, collector down (diagnostic)',
      workloads: ['latency', 'throughput', 'blob'],
      start: startHub({ shared: false, telemetry: 'down' }),
    },
    {
      id: 'hub-rawecho',
      label: 'patchbay hub, per-session child, hand-rolled echo (diagnostic)',
      workloads: ['sessions'],
      start: startHub({ shared: false, raw: true }),
    },
    {
      // The warm pool capped at one spare: what the hub did before the pool grew with demand.
      id: 'hub-1spare',
      label: 'patchbay hub, per-session child, one warm spare (diagnostic)',
      workloads: ['sessions'],
      start: startHub({ shared: false, warmSpare: 1 }),
    },
    {
      id: 'supergateway',
      label: `supergateway ${sg} (default: stateless)`,
      peer: 'supergateway',
      stateless: true,
      start: startSupergateway(peers, false),
    },
    {
      id: 'supergateway-stateful',
      label: `supergateway ${sg} --stateful`,
      peer: 'supergateway',
      start: startSupergateway(peers, true),
    },
    {
      id: 'mcp-proxy',
      label: `mcp-proxy ${mp} (stream)`,
      peer: 'mcp-proxy',
      start: startMcpProxy(peers),
    },
    // The 2026-07-28 era: no sessions, so no session or memory workload.
    {
      id: 'sdk-modern',
      label: 'SDK createMcpHandler, 2026-07-28 (modern floor)',
      workloads: ['latency', 'throughput', 'blob'],
      stateless: true,
      start: startSdkHttp('modern'),
    },
    {
      id: 'hub-modern',
      label: 'patchbay hub, 2026-07-28 → dual-era server (pass-through)',
      workloads: ['latency', 'throughput', 'blob'],
      stateless: true,
      floor: 'sdk-modern',
      start: startHub({ shared: false, dualEra: true, era: 'modern' }),
    },
    {
      id: 'hub-bridged',
      label: 'patchbay hub, 2026-07-28 → legacy server (bridged)',
      workloads: ['latency', 'throughput', 'blob'],
      stateless: true,
      floor: 'sdk-modern',
      start: startHub({ shared: false, era: 'modern' }),
    },
    ...baselineTargets(baselineDir),
  ];
}

/**
 * `--baseline-dir`: the same hub rows for another build, to compare two builds in one run.
 * @param {string | undefined} dir
 * @returns {import('./common.mjs').Target[]}
 */
function baselineTargets(dir) {
  if (!dir) return [];
  const build = path.resolve(dir);
  if (!existsSync(path.join(build, 'dist', 'main', 'cli', 'main.js')))
    throw new Error(`--baseline-dir ${build}: no dist/main/cli/main.js there`);
  return [
    {
      id: 'base',
      label: 'baseline build, per-session child',
      start: startHub({ shared: false, build }),
    },
    {
      id: 'base-shared',
      label: 'baseline build, shared child',
      start: startHub({ shared: true, build }),
    },
    {
      id: 'base-remote',
      label: 'baseline build → the SDK Streamable HTTP server as a remote upstream',
      workloads: ['latency', 'throughput', 'blob', 'blob-json', 'sessions'],
      start: startHub({ shared: false, remote: true, build }),
    },
    {
      id: 'base-nocapture',
      label: 'baseline build, per-session child, capture off (diagnostic)',
      workloads: ['latency', 'throughput', 'blob', 'blob-json'],
      start: startHub({ shared: false, inspector: { enabled: false }, build }),
    },
  ];
}
