/** `patchbay import <client>`: copy a client's own servers into Patchbay, moving inline keys into the secret store. */
import path from 'node:path';
import { EXIT_OK, type CliCommand, type CommandContext } from '../command.js';
import { CONFIG_OPTION, DATA_DIR_OPTION } from '../locations.js';
import { stringValue } from '../parse-args.js';
import { CLIENT_ARG, clientArg, FILE_OPTION, listOption, openClients } from './clients.js';

export const importCommand: CliCommand = {
  name: 'import',
  summary: "Copy the servers of an MCP client's config into Patchbay (keys go to the secret store)",
  details: [
    'Each of the client’s entries becomes a server in config.json. API keys and tokens found in env,',
    'headers, arguments or URLs are stored as secrets and replaced by ${secret:NAME} references, so',
    'config.json holds no plaintext key. With --replace the client’s entries are then pointed at',
    'Patchbay (through the hub), so the keys leave the client’s file too; a backup is kept.',
  ].join('\n'),
  positionals: [CLIENT_ARG],
  options: [
    { name: 'servers', type: 'string', valueName: 'a,b', description: "Import only these entries (the client's names)" },
    { name: 'replace', type: 'boolean', description: "Then point the client's entries at Patchbay" },
    { name: 'dry-run', type: 'boolean', description: 'Show what would be imported; change nothing' },
    FILE_OPTION,
    CONFIG_OPTION,
    DATA_DIR_OPTION,
  ],
  examples: [
    { command: 'patchbay import claude-desktop', description: "Copy Claude Desktop's servers into Patchbay" },
    { command: 'patchbay import claude-desktop --replace', description: '…and route Claude Desktop through Patchbay' },
  ],
  run: importRun,
};

async function importRun(ctx: CommandContext): Promise<number> {
  const { io, values, commandPath } = ctx;
  const client = clientArg(ctx);
  const servers = listOption(ctx, 'servers');
  const fileFlag = stringValue(values, 'file', commandPath);
  const file = fileFlag === undefined ? undefined : path.resolve(io.cwd, fileFlag);
  const clients = await openClients(ctx);
  try {
    const outcome = await clients.service.import(
      client,
      { ...(servers ? { servers } : {}), ...(values.replace === true ? { replace: true } : {}), ...(values['dry-run'] === true ? { dryRun: true } : {}) },
      file,
    );
    const verb = outcome.dryRun ? 'would import' : 'imported';
    if (outcome.imported.length === 0) io.stderr.write(`patchbay: nothing new to import from ${outcome.file}\n`);
    for (const s of outcome.imported) {
      const secrets = s.secrets.length > 0 ? ` (secrets: ${s.secrets.join(', ')})` : '';
      io.stdout.write(`${verb} ${s.entryName}${s.serverId !== s.entryName ? ` as ${s.serverId}` : ''}${secrets}\n`);
    }
    for (const s of outcome.skipped) io.stderr.write(`  skipped ${s.entryName}: ${s.reason}\n`);
    if (outcome.secretsStored.length > 0) io.stderr.write(`patchbay: stored ${outcome.secretsStored.length} secret(s) in the secret store; config.json references them as \${secret:NAME}\n`);
    const replaced = outcome.replaced;
    if (replaced?.written) {
      io.stdout.write(replaced.diff.endsWith('\n') ? replaced.diff : replaced.diff + '\n');
      io.stderr.write(`patchbay: pointed ${client}'s entries at Patchbay in ${replaced.file} (backup ${replaced.backupId}; undo with: patchbay export ${client} --rollback)\n`);
      io.stderr.write(`  ${replaced.restartHint}\n`);
    } else if (values.replace === true && !outcome.dryRun) {
      io.stderr.write(`patchbay: ${client}'s file needed no change\n`);
    }
    return EXIT_OK;
  } finally {
    await clients.close();
  }
}
