/**
 * The shape every `patchbay` command has. Help text, usage lines and argument parsing are all
 * derived from these definitions, so a flag cannot exist without being documented.
 */

/** What a command may touch: injected so commands run in tests without a real terminal. */
export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  homedir: string;
  cwd: string;
}

export interface CliOption {
  /** Long name without dashes, e.g. `data-dir`. */
  name: string;
  short?: string;
  type: 'string' | 'boolean';
  /** May be given more than once; the value is then an array. */
  multiple?: boolean;
  /** Placeholder in usage lines, e.g. `FILE`. */
  valueName?: string;
  description: string;
}

export interface CliPositional {
  name: string;
  description: string;
  optional?: boolean;
  /** The last positional only: takes every argument left (`WORDS...`). */
  variadic?: boolean;
}

export interface CliExample {
  command: string;
  description: string;
}

export type OptionValues = Record<string, string | boolean | undefined>;

export interface CommandContext {
  io: CliIo;
  /** e.g. `secrets set`, for messages. */
  commandPath: string;
  values: OptionValues;
  positionals: string[];
}

export interface CliCommand {
  name: string;
  /** One line, shown in the command list. */
  summary: string;
  /** Extra paragraphs for the command's own help. */
  details?: string;
  options?: CliOption[];
  positionals?: CliPositional[];
  examples?: CliExample[];
  /** Usage message when more positionals are given than declared (default: a generic one). */
  extraArgsMessage?: string;
  /** A command with subcommands (`secrets set|list|delete`) has no `run` of its own. */
  subcommands?: CliCommand[];
  /** Takes its arguments unparsed (stubs); help still works. */
  rawArgs?: boolean;
  /** Resolves to the exit code. Throw UsageError for bad arguments. */
  run?(ctx: CommandContext): Promise<number>;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Bad command-line input: exit code 2, with a hint to `--help`. Messages never echo argument values. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose help the hint points to (`''` for the top level). */
    readonly commandPath = '',
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

export const HELP_OPTION: CliOption = {
  name: 'help',
  short: 'h',
  type: 'boolean',
  description: 'Show this help and exit',
};
