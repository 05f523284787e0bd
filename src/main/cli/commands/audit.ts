/**
 * `patchbay audit [verify]`: the audit trail (docs/audit.md) — what clients did through the hub,
 * read from `<data dir>/audit/` directly (no running hub needed), and its hash chain checked.
 */
import { readAudit, verifyAudit, type AuditLine } from '../../core/index.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { cliDataPaths, DATA_DIR_OPTION } from '../locations.js';
import { JSON_OPTION } from './clients.js';

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: an ISO time, or a duration back from now (`30m`, `2h`, `7d`). */
export function parseSince(text: string, now = Date.now()): number | undefined {
  const duration = /^(\d+)([smhd])$/.exec(text.trim());
  if (duration) return now - Number(duration[1]) * UNITS[duration[2]!]!;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : time;
}

function row(l: AuditLine): string {
  const what = [l.method, l.target].filter((x) => x !== undefined).join(' ');
  return `${l.t.slice(0, 19).replace('T', ' ')}  ${l.client}  ${l.server}  ${what || l.kind}  ${l.outcome}${l.ms !== undefined ? `  ${l.ms} ms` : ''}`;
}

export const auditCommand: CliCommand = {
  name: 'audit',
  summary: 'What clients did through the hub (the audit trail), or `verify` its hash chain',
  details: [
    'One line per request a client made through the hub: time (UTC), who (token:<client> for a client',
    'token, relay for patchbay relay, ui for the Patchbay UI, hub-token:<client name> otherwise), the',
    'server or @profile, the method and tool, prompt or resource, and the outcome — never arguments or',
    'results. Each line carries the hash of the one before it: `patchbay audit verify` says whether',
    'any line was edited, removed or moved, and which. Files: <data dir>/audit/audit.jsonl (older',
    'ones audit.1.jsonl, …).',
    'Off with "audit": {"enabled": false} in config.json.',
  ].join('\n'),
  options: [
    { name: 'since', type: 'string', valueName: 'TIME', description: 'Only from TIME on: an ISO time, or a duration back from now (30m, 2h, 7d)' },
    { name: 'client', type: 'string', valueName: 'TEXT', description: 'Only clients whose name contains TEXT (e.g. Cursor, ui)' },
    { name: 'server', type: 'string', valueName: 'ID', description: 'Only this server id or @profile' },
    JSON_OPTION,
    DATA_DIR_OPTION,
  ],
  positionals: [{ name: 'verify', description: 'Check the hash chain instead of listing (exit 1 and the line when broken)', optional: true }],
  examples: [
    { command: 'patchbay audit --since 2h', description: 'The last two hours' },
    { command: 'patchbay audit --client Cursor --server github --json', description: "Cursor's calls to github, as JSON lines" },
    { command: 'patchbay audit verify', description: 'Has any line been edited, removed or moved?' },
  ],
  async run(ctx) {
    const dir = cliDataPaths(ctx.io, ctx.values, ctx.commandPath).auditDir;
    const action = ctx.positionals[0];
    if (action === 'verify') {
      const result = await verifyAudit(dir);
      if (result.ok) {
        ctx.io.stdout.write(`audit trail intact: ${result.lines} line${result.lines === 1 ? '' : 's'} in ${dir}\n`);
        return EXIT_OK;
      }
      const p = result.problem!;
      ctx.io.stderr.write(`patchbay: the audit trail is broken at ${p.file}:${p.line}: ${p.message} (${result.lines} line(s) before it check out)\n`);
      return EXIT_FAILURE;
    }
    if (action !== undefined) throw new UsageError(`unknown action '${action}': give verify, or nothing to list`, ctx.commandPath);
    const since = typeof ctx.values.since === 'string' ? parseSince(ctx.values.since) : undefined;
    if (typeof ctx.values.since === 'string' && since === undefined) throw new UsageError('--since takes an ISO time or a duration such as 30m, 2h, 7d', ctx.commandPath);
    const lines = await readAudit(dir, {
      ...(since !== undefined ? { since } : {}),
      ...(typeof ctx.values.client === 'string' ? { client: ctx.values.client } : {}),
      ...(typeof ctx.values.server === 'string' ? { server: ctx.values.server } : {}),
    });
    if (ctx.values.json === true) {
      for (const l of lines) ctx.io.stdout.write(`${JSON.stringify(l)}\n`);
      return EXIT_OK;
    }
    if (lines.length === 0) {
      ctx.io.stderr.write('patchbay: nothing in the audit trail matches\n');
      return EXIT_OK;
    }
    for (const l of lines) ctx.io.stdout.write(`${row(l)}\n`);
    return EXIT_OK;
  },
};
