/**
 * `patchbay tokens list|revoke`: the per-client tokens that exports wrote into HTTP clients'
 * config files (issue 17). Works on `<data dir>/client-tokens.json` directly, so it needs no
 * running hub; a running hub notices the change within moments and refuses a revoked token.
 */
import { ClientTokenStore, type ClientTokenInfo } from '../../core/index.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type CliCommand, type CommandContext } from '../command.js';
import { cliDataPaths, DATA_DIR_OPTION } from '../locations.js';
import { JSON_OPTION } from './clients.js';

const ID_PATTERN = /^[0-9a-f]{1,64}$/;

async function openStore(ctx: CommandContext): Promise<ClientTokenStore> {
  return ClientTokenStore.open(cliDataPaths(ctx.io, ctx.values, ctx.commandPath).clientTokensFile);
}

/** `2025-01-02 03:04` (UTC) or a dash. */
function when(iso: string | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : '-';
}

const listCommand: CliCommand = {
  name: 'list',
  summary: 'List the client tokens: id, client, state, created, last used, config file (never values)',
  details: [
    'Each HTTP client Patchbay exports to gets a token of its own, written into that client’s config',
    'file and nowhere else; Patchbay keeps only a hash. Revoked tokens are listed too (state revoked).',
    'Times are UTC. "last used" is noted by the hub about once a minute.',
  ].join('\n'),
  options: [JSON_OPTION, DATA_DIR_OPTION],
  examples: [
    { command: 'patchbay tokens list', description: 'Which clients hold a token, and when each was last used' },
    { command: 'patchbay tokens list --json', description: 'The same, for scripts' },
  ],
  async run(ctx) {
    const tokens = (await openStore(ctx)).list();
    if (ctx.values.json === true) {
      ctx.io.stdout.write(JSON.stringify(tokens, null, 2) + '\n');
      return EXIT_OK;
    }
    if (tokens.length === 0) {
      ctx.io.stderr.write('patchbay: no client tokens yet; `patchbay export <client>` gives an HTTP client one\n');
      return EXIT_OK;
    }
    const rows = tokens.map((t) => [t.id, t.label, t.revoked ? 'revoked' : 'active', when(t.created), when(t.lastUsed), t.file]);
    const head = ['ID', 'CLIENT', 'STATE', 'CREATED', 'LAST USED', 'FILE'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    for (const row of [head, ...rows]) ctx.io.stdout.write(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ') + '\n');
    return EXIT_OK;
  },
};

const revokeCommand: CliCommand = {
  name: 'revoke',
  summary: 'Revoke one client token: that client gets 401 until it is exported again',
  details: [
    'Only that client is cut off; other clients and the hub token keep working. A running hub refuses',
    'the token within a moment. To give the client a new token: patchbay export <client>.',
  ].join('\n'),
  options: [DATA_DIR_OPTION],
  positionals: [{ name: 'ID', description: 'The token’s id, as `patchbay tokens list` shows it' }],
  examples: [{ command: 'patchbay tokens revoke 3f9a1c0b7e', description: 'Cut off the client holding that token' }],
  async run(ctx) {
    const id = ctx.positionals[0] ?? '';
    if (!ID_PATTERN.test(id)) throw new UsageError('ID is the hexadecimal id `patchbay tokens list` shows', ctx.commandPath);
    const store = await openStore(ctx);
    let before: ClientTokenInfo | undefined;
    let info: ClientTokenInfo | undefined;
    try {
      before = store.list().find((t) => t.id === id);
      info = await store.revoke(id);
    } finally {
      await store.close();
    }
    if (!info) {
      ctx.io.stderr.write(`patchbay: there is no client token with id '${id}' (list them with: patchbay tokens list)\n`);
      return EXIT_FAILURE;
    }
    ctx.io.stderr.write(
      before?.revoked
        ? `patchbay: the client token ${id} of ${info.label} was already revoked (${when(info.revoked)} UTC)\n`
        : `patchbay: revoked the client token ${id} of ${info.label} (${info.file}); ${info.label} gets 401 until you export it again: patchbay export ${info.client}\n`,
    );
    return EXIT_OK;
  },
};

export const tokensCommand: CliCommand = {
  name: 'tokens',
  summary: 'List or revoke the per-client tokens that exports wrote into HTTP clients',
  details: 'Kept as hashes in <data dir>/client-tokens.json (mode 0600). The hub token (hub-token) is not one of them: rotate it in Settings.',
  subcommands: [listCommand, revokeCommand],
};
