/**
 * Process inspection for tests that must prove a process is gone (or still there): Linux /proc,
 * falling back to kill(pid, 0) on other platforms.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { FIXTURES_DIR } from './repo-paths.js';

interface ProcStat {
  pid: number;
  state: string;
  ppid: number;
  pgrp: number;
}

function procStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (in parentheses) may contain spaces: fields are counted after its ')'.
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { pid, state: rest[0]!, ppid: Number(rest[1]), pgrp: Number(rest[2]) };
  } catch {
    return undefined;
  }
}

export function hasProc(): boolean {
  try {
    readdirSync('/proc/self');
    return true;
  } catch {
    return false;
  }
}

/** True while the process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  const stat = procStat(pid);
  return stat === undefined ? !hasProc() : stat.state !== 'Z' && stat.state !== 'X';
}

/** A process's command line, arguments joined by spaces ('' when it is gone or unreadable). */
export function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Live (non-zombie) direct children of a process. */
export function childrenOf(ppid: number = process.pid): number[] {
  if (!hasProc()) return [];
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = procStat(Number(name));
    if (stat && stat.ppid === ppid && stat.state !== 'Z' && stat.state !== 'X') out.push(stat.pid);
  }
  return out;
}

/** Live child processes of this test process that run one of the test fixtures. */
export function fixtureChildren(): number[] {
  return childrenOf(process.pid).filter((pid) => cmdline(pid).includes(FIXTURES_DIR));
}

export function killQuietly(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
}
