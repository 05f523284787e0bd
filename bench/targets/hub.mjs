// @ts-check
/**
 * The patchbay hub as a target of bench/run.mjs (every hub row, the memory and profile runs, and
 * the build the burst and relay workloads use): `bin/patchbay.js serve` of a private snapshot of
 * the build, with the echo server as its only server, in a temporary data dir.
 */
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ECHO, ECHO_RAW, NODE, REPO } from '../lib/paths.mjs';
import { closedPort, startOtlpSink } from '../lib/otlp-sink.mjs';
import { RUN_MARK, startProcess } from '../lib/proc.mjs';
import { echoArgs, stopper, waitReady } from './common.mjs';
import { startSdkHttpServer } from './servers.mjs';

/** Temporary data dirs of hubs still running; removed on any exit. @type {Set<string>} */
const tempDirs = new Set();

/** Removes the data dirs of hubs still running (synchronous: for process 'exit'). */
export function removeHubDataDirs() {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}

/** @type {string | undefined} */
let buildSnapshot;

/**
 * The hub build this run measures: a private copy of bin/ and dist/ taken at start (with the
 * repo's package.json and node_modules linked in), so a rebuild in the working tree while the
 * bench runs cannot change or break what is being measured half-way. The first call takes it;
 * `hubDir` (--hub-dir) is only read then.
 * @param {string} [hubDir]
 */
export function hubBuild(hubDir) {
  if (buildSnapshot) return buildSnapshot;
  if (hubDir) {
    // Another build to measure (a branch, an experiment): a directory with bin/, dist/ and a
    // package.json, whose imports resolve (a node_modules there or above it).
    const dir = path.resolve(hubDir);
    if (!existsSync(path.join(dir, 'dist', 'main', 'cli', 'main.js'))) {
      throw new Error(`--hub-dir ${dir}: no dist/main/cli/main.js there`);
    }
    buildSnapshot = dir;
    return dir;
  }
  if (!existsSync(path.join(REPO, 'dist', 'main', 'cli', 'main.js'))) {
    throw new Error(
      'the hub is not built: run `npm run build` (or `npm run bench`, which builds first)',
    );
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-build-'));
  cpSync(path.join(REPO, 'dist'), path.join(dir, 'dist'), { recursive: true });
  cpSync(path.join(REPO, 'bin'), path.join(dir, 'bin'), { recursive: true });
  cpSync(path.join(REPO, 'package.json'), path.join(dir, 'package.json'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  buildSnapshot = dir;
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * `telemetry`: OpenTelemetry on, exporting over OTLP (http/protobuf) to a sink this process
 * starts on loopback (`sink`, bench/lib/otlp-sink.mjs), or to a closed port (`down`: a collector
 * that is down). `remote`: the echo server is not a stdio child but the floor's own process
 * (bench/sdk-http-server.mjs, started here, a child of the bench: its CPU counts as `children`),
 * configured as a remote `{type: "http", url}` (issue 27: what the hub's remote client adds).
 * @param {{ shared: boolean, raw?: boolean, dualEra?: boolean, era?: 'modern', inspector?: Record<string, unknown>, build?: string, warmSpare?: number, telemetry?: 'sink' | 'down', remote?: boolean }} mode @returns {import('./common.mjs').Target['start']}
 */
export function startHub(mode) {
  return async (extra = {}) => {
    const build = mode.build ?? hubBuild();
    const remote = mode.remote ? await startSdkHttpServer(false) : undefined;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'patchbay-bench-'));
    const server = remote
      ? { type: 'http', url: remote.url }
      : {
          command: NODE,
          args: mode.raw
            ? [ECHO_RAW, RUN_MARK]
            : mode.dualEra
              ? [ECHO, '--dual-era', RUN_MARK]
              : echoArgs,
          ...(mode.shared ? { shared: true } : {}),
          ...(mode.warmSpare !== undefined ? { warmSpare: mode.warmSpare } : {}),
        };
    const sink = mode.telemetry === 'sink' ? await startOtlpSink() : undefined;
    const endpoint =
      sink?.endpoint ??
      (mode.telemetry === 'down' ? `http://127.0.0.1:${await closedPort()}` : undefined);
    writeFileSync(
      path.join(dataDir, 'config.json'),
      JSON.stringify(
        {
          mcpServers: { echo: server },
          ...(mode.inspector ? { inspector: mode.inspector } : {}),
          ...(endpoint ? { telemetry: { endpoint } } : {}),
        },
        null,
        2,
      ),
    );
    tempDirs.add(dataDir);
    /** @type {string | undefined} */
    let url;
    const proc = startProcess(
      mode.shared ? 'patchbay hub (shared)' : 'patchbay hub',
      NODE,
      [
        ...(extra.nodeArgs ?? []),
        path.join(build, 'bin', 'patchbay.js'),
        'serve',
        '--port',
        '0',
        '--no-auth',
      ],
      {
        cwd: build,
        env: { ...process.env, PATCHBAY_HOME: dataDir, PATCHBAY_NO_LOGIN_SHELL: '1' },
        ipc: extra.ipc,
        onLine: (line) => {
          const m = /hub running at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
          if (m) url = m[1];
        },
      },
    );
    const stopHub = stopper(proc);
    const stop = async () => {
      await stopHub();
      await remote?.stop();
      if (sink) {
        console.error(
          `bench:   OTLP sink took ${sink.stats.requests} exports, ${(sink.stats.bytes / 1024).toFixed(0)} KiB`,
        );
        await sink.close();
      }
    };
    try {
      await waitReady(proc, () => (url ? `${url}/health` : undefined));
    } catch (err) {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
      tempDirs.delete(dataDir);
      throw err;
    }
    return {
      url: `${url}/mcp/echo`,
      proc,
      ...(mode.era ? { era: mode.era } : {}),
      stop: async () => {
        await stop();
        rmSync(dataDir, { recursive: true, force: true });
        tempDirs.delete(dataDir);
      },
    };
  };
}
