// @ts-check
/**
 * What every target of bench/run.mjs has in common: its shape, the echo server it runs, and how
 * its process is awaited and stopped.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ECHO, NODE } from '../lib/paths.mjs';
import { RUN_MARK, markedPids, stopProcess, sweepStrays } from '../lib/proc.mjs';

/**
 * @typedef {object} Running
 * @property {string} [url]                        Streamable HTTP endpoint
 * @property {{ command: string, args: string[] }} [stdio]
 * @property {import('../lib/proc.mjs').Proc} [proc] the server/gateway process
 * @property {'modern'} [era]                      the client speaks 2026-07-28 (default: 2025)
 * @property {() => Promise<void>} stop
 */
/**
 * @typedef {object} Target
 * @property {string} id
 * @property {string} label
 * @property {string} [peer]        npm package it needs from bench/.peers
 * @property {boolean} [stateless]  no sessions (session workload n/a)
 * @property {string[]} [workloads] only these workloads (a diagnostic row)
 * @property {string} [floor]       the row its "vs floor" ratios use (default sdk-http)
 * @property {(extra?: { nodeArgs?: string[], ipc?: boolean }) => Promise<Running>} start
 */

export const echoArgs = [ECHO, RUN_MARK];
export const ECHO_SHELL = [NODE, ...echoArgs].map((a) => `'${a}'`).join(' ');

/**
 * Waits until `url` answers 200, or the process dies, or 30 s pass.
 * @param {import('../lib/proc.mjs').Proc} proc @param {() => string | undefined} url
 */
export async function waitReady(proc, url) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.done)
      throw new Error(
        `${proc.name} exited during startup:\n  ${proc.tail.slice(-10).join('\n  ')}`,
      );
    const u = url();
    if (u) {
      try {
        const res = await fetch(u, { signal: AbortSignal.timeout(2000) });
        await res.arrayBuffer();
        if (res.ok) return;
      } catch {
        // not yet
      }
    }
    if (Date.now() > deadline)
      throw new Error(
        `${proc.name} did not become ready within 30 s:\n  ${proc.tail.slice(-10).join('\n  ')}`,
      );
    await sleep(50);
  }
}

/** @param {import('../lib/proc.mjs').Proc} proc */
export function stopper(proc) {
  return async () => {
    await stopProcess(proc, { graceMs: 6000 });
    // Give a gateway's own shutdown a moment to reap children, then sweep what is left.
    for (let i = 0; i < 20 && markedPids().length > 0; i++) await sleep(100);
    sweepStrays();
  };
}
