/**
 * Dispatches `patchbay <command> [subcommand] [args]` and maps outcomes to exit codes:
 * 0 success, 1 runtime failure (`patchbay: <message>`, no stack), 2 usage error (+ a --help hint).
 */
import { scrubText } from '../core/index.js';
import {
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  UsageError,
  type CliCommand,
  type CliIo,
} from './command.js';
import { commands as registeredCommands } from './command-registry.js';
import { formatCommandHelp, formatTopHelp } from './help.js';
import { defaultDataDir } from './locations.js';
import { parseCommandArgs } from './parse-args.js';
import { PATCHBAY_VERSION } from '../core/index.js';

export async function runCli(
  argv: readonly string[],
  io: CliIo,
  commands: readonly CliCommand[] = registeredCommands,
): Promise<number> {
  try {
    return await dispatch([...argv], io, commands);
  } catch (err) {
    if (err instanceof UsageError) {
      const where = err.commandPath ? ` ${err.commandPath}` : '';
      io.stderr.write(
        `patchbay${where}: ${err.message}\nRun 'patchbay${where} --help' for usage.\n`,
      );
      return EXIT_USAGE;
    }
    // Our errors carry messages a person can act on; a stack would only bury them.
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`patchbay: ${scrubText(message)}\n`);
    return EXIT_FAILURE;
  }
}

async function dispatch(
  argv: string[],
  io: CliIo,
  commands: readonly CliCommand[],
): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr.write(formatTopHelp(commands, { defaultDataDir: defaultDataDir(io) }));
    throw new UsageError('missing command');
  }
  if (first === '--help' || first === '-h') {
    io.stdout.write(formatTopHelp(commands, { defaultDataDir: defaultDataDir(io) }));
    return EXIT_OK;
  }
  if (first === '--version' || first === '-V') {
    io.stdout.write(`${PATCHBAY_VERSION}\n`);
    return EXIT_OK;
  }
  if (first === 'help') return help(rest, io, commands);
  if (first.startsWith('-'))
    throw new UsageError(`unknown option '${first.split('=')[0]}' (options go after the command)`);

  let command = findCommand(commands, first, '');
  let path = command.name;
  let args = rest;
  if (command.subcommands) {
    const [sub, ...subArgs] = rest;
    if (sub === undefined || sub === '--help' || sub === '-h') {
      if (sub === undefined) {
        throw new UsageError(
          `missing subcommand: ${command.subcommands.map((s) => s.name).join(', ')}`,
          path,
        );
      }
      io.stdout.write(formatCommandHelp(command, path));
      return EXIT_OK;
    }
    command = findCommand(command.subcommands, sub, path);
    path = `${path} ${command.name}`;
    args = subArgs;
  }
  if (wantsHelp(args)) {
    io.stdout.write(formatCommandHelp(command, path));
    return EXIT_OK;
  }
  if (!command.run) throw new UsageError(`'${path}' cannot be run on its own`, path);
  if (command.rawArgs) return command.run({ io, commandPath: path, values: {}, positionals: args });
  const { values, positionals } = parseCommandArgs(command, args, path);
  return command.run({ io, commandPath: path, values, positionals });
}

function help(topics: string[], io: CliIo, commands: readonly CliCommand[]): number {
  const [name, sub, ...extra] = topics;
  if (name === undefined) {
    io.stdout.write(formatTopHelp(commands, { defaultDataDir: defaultDataDir(io) }));
    return EXIT_OK;
  }
  if (extra.length > 0) throw new UsageError('help takes a command and an optional subcommand', '');
  const command = findCommand(commands, name, '');
  if (sub === undefined || !command.subcommands) {
    if (sub !== undefined)
      throw new UsageError(`'${command.name}' has no subcommands`, command.name);
    io.stdout.write(formatCommandHelp(command, command.name));
    return EXIT_OK;
  }
  const subcommand = findCommand(command.subcommands, sub, command.name);
  io.stdout.write(formatCommandHelp(subcommand, `${command.name} ${subcommand.name}`));
  return EXIT_OK;
}

/** `--help` anywhere before a `--` terminator. */
function wantsHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

function findCommand(list: readonly CliCommand[], name: string, parentPath: string): CliCommand {
  const found = list.find((c) => c.name === name);
  if (found) return found;
  const kind = parentPath ? `'${parentPath}' subcommand` : 'command';
  // Only echo short word-like input: an unknown "command" may be a mistyped secret.
  const shown = /^[\w.-]{1,40}$/.test(name) ? `'${name}'` : '';
  const guess = closest(
    name,
    list.map((c) => c.name),
  );
  const hint = guess
    ? `; did you mean '${guess}'?`
    : `; expected one of: ${list.map((c) => c.name).join(', ')}`;
  throw new UsageError(`unknown ${kind}${shown ? ` ${shown}` : ''}${hint}`, parentPath);
}

function closest(input: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(input.toLowerCase(), name);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
