/**
 * Every `patchbay` command, in help order. Adding a command = one file under commands/ plus
 * one line here; help, `help <cmd>` and `<cmd> --help` pick it up from its definition.
 */
import type { CliCommand } from './command.js';
import { clientsCommand } from './commands/clients.js';
import { configCommand } from './commands/config.js';
import { doctorCommand } from './commands/doctor.js';
import { exportCommand } from './commands/export.js';
import { importCommand } from './commands/import.js';
import { profilesCommand } from './commands/profiles.js';
import { relayCommand } from './commands/relay.js';
import { secretsCommand } from './commands/secrets.js';
import { serveCommand } from './commands/serve.js';
import { sessionsCommand } from './commands/sessions.js';
import { tailCommand } from './commands/tail.js';
import { tokensCommand } from './commands/tokens.js';
import { auditCommand } from './commands/audit.js';
import { addCommand, outdatedCommand, searchCommand, updateCommand } from './commands/catalog.js';

export const commands: readonly CliCommand[] = [
  serveCommand,
  relayCommand,
  secretsCommand,
  configCommand,
  clientsCommand,
  profilesCommand,
  searchCommand,
  addCommand,
  outdatedCommand,
  updateCommand,
  exportCommand,
  importCommand,
  doctorCommand,
  tokensCommand,
  auditCommand,
  sessionsCommand,
  tailCommand,
];
