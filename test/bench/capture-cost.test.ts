// The capture-cost benchmark runs end to end on a tiny load: real hubs (the built engine), real
// stdio children, real HTTP on loopback. No figure is asserted (tests never judge speed); what is
// checked is that it measures both modes of every round and reports the cost.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(REPO, 'bench/capture-cost.mjs'), ...args], { cwd: REPO });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('bench/capture-cost.mjs', () => {
  it('measures a fresh pair of hubs per round and prints the cost of capture', async () => {
    const { code, stdout, stderr } = await run(['--rounds', '2', '--seconds', '0.3', '--warmup-calls', '200', '--sessions', '2']);
    expect(code, stderr).toBe(0);
    // Two rounds × two modes × two slices.
    expect(stderr.match(/round \d capture (on |off)/g)).toHaveLength(8);
    expect(stdout).toMatch(/throughput cost of capture, median of 2 paired rounds: [+−]\d+\.\d%.*target under 10%: (met|missed)/);
    // Two rounds are too few for a 95% interval of their median: it says so rather than print one.
    expect(stdout).toContain('95% confidence interval of the median: needs 6 rounds');
    const result = JSON.parse(stdout.trim().split('\n').pop()!) as { rounds: number; on: { calls: { median: number } }; off: { calls: { median: number } }; cost: { throughputPct: { pairedMedian: number } } };
    expect(result.rounds).toBe(2);
    expect(result.on.calls.median).toBeGreaterThan(0);
    expect(result.off.calls.median).toBeGreaterThan(0);
    expect(Number.isFinite(result.cost.throughputPct.pairedMedian)).toBe(true);
  }, 120_000);
});
