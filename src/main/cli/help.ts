/** Help text, generated from the command definitions so it cannot drift from what is parsed. */
import { HELP_OPTION, type CliCommand, type CliOption } from './command.js';

export interface TopHelpInfo {
  defaultDataDir: string;
}

export function formatTopHelp(commands: readonly CliCommand[], info: TopHelpInfo): string {
  const rows: Array<[string, string]> = [];
  const addRow = (path: string, command: CliCommand): void => {
    const flags = optionsSummary(command);
    rows.push([
      `${path} ${positionalsSummary(command)}`.trim(),
      flags ? `${command.summary}\n${flags}` : command.summary,
    ]);
  };
  for (const command of commands) {
    if (command.subcommands)
      for (const sub of command.subcommands) addRow(`${command.name} ${sub.name}`, sub);
    else addRow(command.name, command);
  }
  const lines = [
    'patchbay — an MCP hub: one loopback endpoint for all your MCP servers, with every message inspectable',
    '',
    'Usage:',
    '  patchbay <command> [options]',
    '  patchbay help <command>        show the help of a command (also: patchbay <command> --help)',
    '',
    'Commands:',
    ...table(rows),
  ];
  lines.push(
    '',
    'Global options:',
    ...table([
      ['-h, --help', 'Show this help and exit'],
      ['-V, --version', 'Print the version and exit'],
    ]),
    '',
    'Environment:',
    ...table([
      [
        'PATCHBAY_HOME',
        `Data dir: config.json, secrets.json, hub-token, hub.json, logs/ (default here: ${info.defaultDataDir})`,
      ],
      ['PATCHBAY_LOG_LEVEL', 'debug | info | warn | error (default: info)'],
    ]),
    '',
    'Exit codes: 0 success, 1 failure, 2 usage error.',
    '',
    'Examples:',
    ...examples([
      {
        command: 'patchbay serve',
        description: 'Run the hub on http://127.0.0.1:39517 until Ctrl-C',
      },
      {
        command: 'printf %s "$GITHUB_TOKEN" | patchbay secrets set GITHUB_TOKEN',
        description: 'Store a secret for ${secret:GITHUB_TOKEN}',
      },
      { command: 'patchbay config check', description: 'Validate config.json' },
      { command: 'patchbay help serve', description: 'Every flag of serve' },
    ]),
  );
  return lines.join('\n') + '\n';
}

export function formatCommandHelp(command: CliCommand, commandPath: string): string {
  const lines = [`patchbay ${commandPath} — ${command.summary}`, '', 'Usage:'];
  if (command.subcommands) {
    lines.push(`  patchbay ${commandPath} <subcommand> [options]`);
    for (const sub of command.subcommands)
      lines.push(`  ${usageLine(sub, `${commandPath} ${sub.name}`)}`);
  } else {
    lines.push(`  ${usageLine(command, commandPath)}`);
  }
  if (command.details) lines.push('', ...command.details.split('\n'));
  if (command.subcommands) {
    lines.push(
      '',
      'Subcommands:',
      ...table(
        command.subcommands.map((s) => [`${s.name} ${positionalsSummary(s)}`.trim(), s.summary]),
      ),
    );
  }
  if (command.positionals?.length) {
    lines.push('', 'Arguments:', ...table(command.positionals.map((p) => [p.name, p.description])));
  }
  lines.push('', 'Options:', ...table(optionRows(command.rawArgs ? [] : (command.options ?? []))));
  const allExamples = command.subcommands
    ? command.subcommands.flatMap((s) => s.examples ?? [])
    : (command.examples ?? []);
  if (allExamples.length > 0) lines.push('', 'Examples:', ...examples(allExamples));
  if (command.subcommands)
    lines.push(
      '',
      `Run 'patchbay help ${commandPath} <subcommand>' for all of a subcommand's options.`,
    );
  return lines.join('\n') + '\n';
}

/** `patchbay serve [--config FILE] [--port N] …` — every option spelled out, as people copy it. */
export function usageLine(command: CliCommand, commandPath: string): string {
  return `patchbay ${commandPath} ${argsSummary(command)}`.trimEnd();
}

function argsSummary(command: CliCommand): string {
  if (command.rawArgs) return '[args…]';
  return [optionsSummary(command), positionalsSummary(command)].filter(Boolean).join(' ');
}

function optionsSummary(command: CliCommand): string {
  if (command.rawArgs) return '';
  return (command.options ?? [])
    .map((o) =>
      o.type === 'boolean' ? `[--${o.name}]` : `[--${o.name} ${o.valueName ?? 'VALUE'}]`,
    )
    .join(' ');
}

function positionalsSummary(command: CliCommand): string {
  return (command.positionals ?? []).map((p) => (p.optional ? `[${p.name}${p.variadic ? '...' : ''}]` : `${p.name}${p.variadic ? '...' : ''}`)).join(' ');
}

function optionRows(options: readonly CliOption[]): Array<[string, string]> {
  return [...options, HELP_OPTION].map((o) => {
    const long = o.type === 'string' ? `--${o.name} ${o.valueName ?? 'VALUE'}` : `--${o.name}`;
    return [o.short ? `-${o.short}, ${long}` : `    ${long}`, o.description];
  });
}

/** Two columns; a right cell may hold several lines, each indented to the column. */
function table(rows: ReadonlyArray<readonly [string, string]>): string[] {
  const width = Math.min(30, Math.max(0, ...rows.map(([left]) => left.length)));
  const pad = ' '.repeat(width + 4);
  return rows.map(([left, right]) => {
    const [first = '', ...more] = right.split('\n');
    const head =
      left.length > width ? `  ${left}\n${pad}${first}` : `  ${left.padEnd(width)}  ${first}`;
    return [head, ...more.map((line) => `${pad}${line}`)].join('\n');
  });
}

function examples(list: ReadonlyArray<{ command: string; description: string }>): string[] {
  return list.flatMap((e) => [`  # ${e.description}`, `  ${e.command}`]);
}
