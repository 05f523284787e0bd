/**
 * Every `patchbay` command, in help order. Adding a command = one file under commands/ plus
 * one line here; help, `help <cmd>` and `<cmd> --help` pick it up from its definition.
 */
import type { CliCommand } from './command.js';
import { comingSoonCommands } from './commands/coming-soon.js';
import { configCommand } from './commands/config.js';
import { secretsCommand } from './commands/secrets.js';
import { serveCommand } from './commands/serve.js';

export const commands: readonly CliCommand[] = [
  serveCommand,
  secretsCommand,
  configCommand,
  ...comingSoonCommands,
];
