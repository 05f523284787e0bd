/** `patchbay doctor`: what is likely to go wrong between Patchbay, its servers and the MCP clients, and how to fix it. */
import { loadClients, type DoctorCheck, type DoctorReport } from '../../core/index.js';
import { EXIT_FAILURE, EXIT_OK, type CliCommand, type CommandContext } from '../command.js';
import { CONFIG_OPTION, DATA_DIR_OPTION } from '../locations.js';
import type { CatalogOutdated } from '../../../shared/api/catalog-contract.js';
import { JSON_OPTION, openClients } from './clients.js';
import { connectHub } from './sessions.js';

export const doctorCommand: CliCommand = {
  name: 'doctor',
  summary: 'Check config, secrets, the hub port, server commands and every client’s config; fix what is safe',
  details: [
    'Checks: config.json and the secrets it references; the hub token; whether the hub runs or its',
    'port is taken; that each server’s command resolves (npx, uvx, node, docker…); that each client’s',
    'file parses, that Patchbay’s entries in it are current (relay path, hub port, a client token the',
    'hub knows and did not revoke), that the client’s own commands resolve on the PATH a',
    'desktop-launched app gets; and that Claude Desktop from the Microsoft Store reads the file',
    'Patchbay writes. Exit 1 when a check fails.',
  ].join('\n'),
  options: [{ name: 'fix', type: 'boolean', description: 'Apply every safe fix offered (a backup of each file is kept)' }, JSON_OPTION, CONFIG_OPTION, DATA_DIR_OPTION],
  examples: [
    { command: 'patchbay doctor', description: 'Run the checks' },
    { command: 'patchbay doctor --fix', description: 'Run them and apply the safe fixes' },
  ],
  run: doctorRun,
};

const MARK: Record<DoctorCheck['status'], string> = { ok: 'ok  ', info: 'info', warn: 'warn', error: 'FAIL' };

async function doctorRun(ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  const clients = await openClients(ctx);
  // Outdated servers: the running hub's cached registry copy (never fetched for the doctor); no hub, no line.
  clients.doctor.outdated = async () => {
    const hub = await connectHub(ctx).catch(() => undefined);
    return hub ? (await hub.call<CatalogOutdated>('catalog.outdated', {})).servers : undefined;
  };
  const { runDoctor, applyFix, ClientsError } = await loadClients();
  try {
    let report = await runDoctor(clients.doctor);
    if (ctx.values.fix === true) {
      const fixes = [...new Set(report.checks.map((c) => c.fix?.id).filter((id): id is string => id !== undefined))];
      for (const fixId of fixes) {
        try {
          const outcome = await applyFix(fixId, clients.doctor);
          io.stderr.write(`patchbay: fixed: ${outcome.message}${outcome.backupId ? ` (backup ${outcome.backupId})` : ''}\n`);
        } catch (err) {
          if (!(err instanceof ClientsError)) throw err;
          io.stderr.write(`patchbay: could not apply ${fixId}: ${err.message}\n`);
        }
      }
      if (fixes.length > 0) report = await runDoctor(clients.doctor);
    }
    if (ctx.values.json === true) io.stdout.write(JSON.stringify(report, null, 2) + '\n');
    else printReport(ctx, report);
    return report.counts.error > 0 ? EXIT_FAILURE : EXIT_OK;
  } finally {
    await clients.close();
  }
}

function printReport(ctx: CommandContext, report: DoctorReport): void {
  const { io } = ctx;
  for (const check of report.checks) {
    io.stdout.write(`[${MARK[check.status]}] ${check.title}\n`);
    for (const line of check.detail?.split('\n') ?? []) io.stdout.write(`       ${line}\n`);
    if (check.hint) io.stdout.write(`       → ${check.hint}\n`);
    if (check.fix) io.stdout.write(`       fix: ${check.fix.label} (patchbay doctor --fix)\n`);
  }
  const { ok, info, warn, error } = report.counts;
  io.stdout.write(`\n${ok} ok, ${warn} warning(s), ${error} problem(s)${info ? `, ${info} note(s)` : ''}\n`);
}
