import { describe, expect, it } from 'vitest';
import { commands } from './command-registry.js';
import type { CliCommand } from './command.js';
import { formatCommandHelp, formatTopHelp } from './help.js';

function leaves(): Array<{ path: string; command: CliCommand }> {
  return commands.flatMap((c) =>
    c.subcommands
      ? c.subcommands.map((s) => ({ path: `${c.name} ${s.name}`, command: s }))
      : [{ path: c.name, command: c }],
  );
}

describe('help text', () => {
  const top = formatTopHelp(commands, { defaultDataDir: '/data' });

  it('lists every command with its summary, and every flag of every runnable command', () => {
    for (const { path, command } of leaves()) {
      expect(top).toContain(path);
      expect(top).toContain(command.summary);
      for (const option of command.options ?? [])
        expect(top, `${path} --${option.name}`).toContain(`--${option.name}`);
    }
    expect(top).toContain('--help');
    expect(top).toContain('--version');
    expect(top).toContain('PATCHBAY_HOME');
    expect(top).toContain('Examples:');
  });

  it.each(leaves())(
    'documents every flag, argument and an example of `$path`',
    ({ path, command }) => {
      const help = formatCommandHelp(command, path);
      expect(help).toContain(`patchbay ${path} — ${command.summary}`);
      expect(help).toContain('-h, --help');
      for (const option of command.options ?? []) {
        expect(help).toContain(`--${option.name}`);
        expect(help).toContain(option.description);
      }
      for (const positional of command.positionals ?? []) expect(help).toContain(positional.name);
      expect(help).toContain('Examples:');
    },
  );

  it('documents each subcommand in its group help', () => {
    for (const command of commands.filter((c) => c.subcommands)) {
      const help = formatCommandHelp(command, command.name);
      for (const sub of command.subcommands ?? [])
        expect(help).toContain(`patchbay ${command.name} ${sub.name}`);
    }
  });
});
