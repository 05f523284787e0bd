/**
 * Commands the architecture promises but that are not built yet. Each answers "not implemented
 * yet" (exit 1) rather than "unknown command", so scripts and docs can already name them.
 * To implement one: add `commands/<name>.ts`, register it in command-registry.ts and delete
 * its line here.
 */
import { EXIT_FAILURE, type CliCommand } from '../command.js';

const planned: Array<{ name: string; summary: string }> = [
  {
    name: 'relay',
    summary: 'Pipe a stdio MCP client (e.g. Claude Desktop) to a server of the hub',
  },
  {
    name: 'export',
    summary: "Write Patchbay's entries into an MCP client's config, with a diff and a backup",
  },
  { name: 'import', summary: "Copy the servers of an MCP client's config into Patchbay" },
  { name: 'doctor', summary: 'Check the data dir, config, secrets, token and a running hub' },
  { name: 'sessions', summary: 'List the live sessions of a running hub' },
  { name: 'tail', summary: 'Follow the messages crossing a running hub' },
];

export const comingSoonCommands: CliCommand[] = planned.map(({ name, summary }) => ({
  name,
  summary,
  coming: true,
  rawArgs: true,
  details: 'Not implemented yet: this command exits with code 1.',
  async run(ctx) {
    ctx.io.stderr.write(`patchbay: '${name}' is not implemented yet\n`);
    return EXIT_FAILURE;
  },
}));
