/** `patchbay export <client>`: write Patchbay's entries into an MCP client's config, diff first, backup kept. */
import path from 'node:path';
import type { ExportChange, ExportRequest } from '../../core/index.js';
import { EXIT_OK, UsageError, type CliCommand, type CommandContext } from '../command.js';
import { CONFIG_OPTION, DATA_DIR_OPTION } from '../locations.js';
import { stringValue } from '../parse-args.js';
import { CLIENT_ARG, clientArg, FILE_OPTION, listOption, openClients } from './clients.js';

export const exportCommand: CliCommand = {
  name: 'export',
  summary: "Write Patchbay's entries into an MCP client's config, with a diff and a backup",
  details: [
    'Adds or updates only Patchbay’s own entries; every other server, key and comment in the file stays',
    'as it was. Clients that take URLs get http://127.0.0.1:<port>/mcp/<server> with the hub token;',
    'stdio-only clients (Claude Desktop) get `patchbay relay <server>` by absolute path. Without',
    '--servers every enabled server is exported and entries of removed servers are dropped.',
    'With --profile the client gets one entry per profile instead (`patchbay relay @NAME`, or',
    'http://127.0.0.1:<port>/mcp/@NAME), named patchbay-NAME, and Patchbay\'s own entries for the',
    'servers of that profile are removed: the profile carries their tools. Per-server entries',
    'stay available with --servers.',
    'The diff (hub token masked) is printed first; the previous file is backed up in the data dir.',
  ].join('\n'),
  positionals: [CLIENT_ARG],
  options: [
    { name: 'servers', type: 'string', valueName: 'a,b', description: 'Export only these servers (comma-separated ids)' },
    { name: 'profile', type: 'string', valueName: 'NAME', description: 'Export these profiles instead of servers (comma-separated names; "default" is every enabled server)' },
    { name: 'dry-run', type: 'boolean', description: 'Print the diff and write nothing' },
    { name: 'transport', type: 'string', valueName: 'stdio|http', description: 'Entry kind for clients that take both (default: http, or what is there)' },
    { name: 'replace', type: 'boolean', description: "Take over same-named entries that are the client's own" },
    { name: 'rollback', type: 'boolean', description: 'Restore the latest backup (or --backup ID) instead of exporting' },
    { name: 'backup', type: 'string', valueName: 'ID', description: 'With --rollback: the backup to restore' },
    { name: 'list-backups', type: 'boolean', description: "List Patchbay's backups of the client's config" },
    FILE_OPTION,
    CONFIG_OPTION,
    DATA_DIR_OPTION,
  ],
  examples: [
    { command: 'patchbay export claude-desktop --dry-run', description: 'See what would change' },
    { command: 'patchbay export cursor --servers github,fs', description: 'Export two servers to Cursor' },
    { command: 'patchbay export claude-desktop --profile work', description: 'One relay entry for the profile "work" instead of one per server' },
    { command: 'patchbay export claude-desktop --rollback', description: 'Undo the last change' },
  ],
  run: exportRun,
};

async function exportRun(ctx: CommandContext): Promise<number> {
  const { io, values, commandPath } = ctx;
  const client = clientArg(ctx);
  const transport = stringValue(values, 'transport', commandPath);
  if (transport !== undefined && transport !== 'stdio' && transport !== 'http') throw new UsageError('--transport must be stdio or http', commandPath);
  if (values.backup !== undefined && values.rollback !== true) throw new UsageError('--backup goes with --rollback', commandPath);
  const fileFlag = stringValue(values, 'file', commandPath);
  const file = fileFlag === undefined ? undefined : path.resolve(io.cwd, fileFlag);
  const clients = await openClients(ctx);
  try {
    const { service } = clients;
    if (values['list-backups'] === true) {
      const backups = await service.backups(client);
      if (backups.length === 0) io.stderr.write(`patchbay: no backups of ${client}'s config yet\n`);
      for (const b of backups) io.stdout.write(`${b.id}  ${b.reason.padEnd(8)}  ${b.existed ? `${b.size} bytes` : '(file did not exist)'}  ${b.file}\n`);
      return EXIT_OK;
    }
    if (values.rollback === true) {
      const done = await service.rollback(client, stringValue(values, 'backup', commandPath));
      io.stderr.write(
        done.deleted
          ? `patchbay: removed ${done.file} (it did not exist before backup ${done.restored})\n`
          : `patchbay: restored ${done.file} from backup ${done.restored}\n`,
      );
      io.stderr.write(`  undo with: patchbay export ${client} --rollback --backup ${done.backupId}\n`);
      return EXIT_OK;
    }
    const servers = listOption(ctx, 'servers');
    const profiles = listOption(ctx, 'profile');
    if (servers && profiles) throw new UsageError('give --servers or --profile, not both', commandPath);
    const request: ExportRequest = {
      ...(servers ? { servers } : {}),
      ...(profiles ? { profiles } : {}),
      ...(transport === 'stdio' || transport === 'http' ? { kind: transport } : {}),
      ...(values.replace === true ? { replace: true } : {}),
    };
    const preview = await service.previewExport(client, request, file);
    printChanges(ctx, preview.changes);
    if (!preview.changed) {
      io.stderr.write(`patchbay: ${preview.file} is up to date; nothing to write\n`);
      return EXIT_OK;
    }
    io.stdout.write(preview.diff.endsWith('\n') ? preview.diff : preview.diff + '\n');
    if (values['dry-run'] === true) {
      io.stderr.write('patchbay: dry run; nothing was written\n');
      return EXIT_OK;
    }
    const outcome = await service.export(client, { ...request, baseHash: preview.baseHash }, file);
    io.stderr.write(`patchbay: wrote ${outcome.file}${outcome.backupId ? ` (backup ${outcome.backupId}; undo with: patchbay export ${client} --rollback)` : ''}\n`);
    io.stderr.write(`  ${outcome.restartHint}\n`);
    return EXIT_OK;
  } finally {
    await clients.close();
  }
}

function printChanges(ctx: CommandContext, changes: readonly ExportChange[]): void {
  if (changes.length === 0) ctx.io.stderr.write('patchbay: no servers to export (add some to config.json first)\n');
  for (const c of changes) {
    const what = c.kind ? ` (${c.kind === 'http' ? 'URL' : 'stdio relay'})` : '';
    ctx.io.stderr.write(`  ${c.action.padEnd(9)} ${c.entryName}${c.entryName !== c.server ? ` → ${c.server}` : ''}${what}${c.message ? `: ${c.message}` : ''}\n`);
  }
}
