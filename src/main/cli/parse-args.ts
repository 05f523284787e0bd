/**
 * Parses a command's arguments with `node:util` parseArgs, turning its errors into
 * UsageErrors. Positionals are always accepted and counted by the command itself, because
 * parseArgs quotes an unexpected argument in its error, and that argument may be a secret.
 */
import { parseArgs } from 'node:util';
import { UsageError, type CliCommand, type OptionValues } from './command.js';

export interface ParsedArgs {
  values: OptionValues;
  positionals: string[];
}

export function parseCommandArgs(
  command: CliCommand,
  args: string[],
  commandPath: string,
): ParsedArgs {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const option of command.options ?? []) {
    options[option.name] = {
      type: option.type,
      ...(option.short ? { short: option.short } : {}),
      ...(option.multiple ? { multiple: true } : {}),
    };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(describeParseError(err), commandPath);
  }
  const positionals = parsed.positionals;
  const declared = command.positionals ?? [];
  const required = declared.filter((p) => !p.optional);
  if (positionals.length < required.length) {
    const missing = required.slice(positionals.length).map((p) => p.name);
    throw new UsageError(`missing ${missing.join(' and ')}`, commandPath);
  }
  if (positionals.length > declared.length && declared.at(-1)?.variadic !== true) {
    const extra = positionals.length - declared.length;
    throw new UsageError(
      command.extraArgsMessage ??
        (declared.length === 0
          ? `'${commandPath}' takes no arguments (got ${extra})`
          : `too many arguments: '${commandPath}' takes ${declared.map((p) => p.name).join(' ')} (got ${extra} more)`),
      commandPath,
    );
  }
  return { values: parsed.values as OptionValues, positionals };
}

function describeParseError(err: unknown): string {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    // Keep only the option name: `--token=abc` must not echo `abc`.
    const name = /Unknown option '([^'=]+)/.exec(message)?.[1];
    return name ? `unknown option '${name}'` : 'unknown option';
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = /Option '(-[^' ]+)/.exec(message)?.[1] ?? 'an option';
    if (message.includes('does not take an argument'))
      return `option '${name}' does not take a value`;
    return `option '${name}' needs a value`;
  }
  return 'invalid arguments';
}

/** Strings from a command's parsed values, refusing an empty one (`--config ""` is surely a mistake). */
export function stringValue(
  values: OptionValues,
  name: string,
  commandPath: string,
): string | undefined {
  const value = values[name];
  if (value === undefined || typeof value === 'boolean') return undefined;
  if (value.trim() === '') throw new UsageError(`--${name} must not be empty`, commandPath);
  return value;
}

/** A `multiple` option's values, in order; none when it is not given. */
export function multipleValue(values: OptionValues, name: string): string[] {
  // parseArgs gives a `multiple` option an array, which OptionValues does not spell out.
  const value = values[name] as string | string[] | boolean | undefined;
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}
