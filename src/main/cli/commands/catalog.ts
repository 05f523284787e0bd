/**
 * The catalog on the command line (docs/catalog.md): `patchbay search`, `add`, `outdated` and
 * `update`, all through the running hub's API (like `profiles`), so the hub's cached registry
 * copy is the one searched and an install reaches connected clients at once.
 *
 * `add` shows the exact command or URL before anything is written. On a terminal it asks for
 * each required value left (secrets without echo) and for a confirmation; elsewhere it takes the
 * flags, and installs when nothing required is missing.
 */
import { readFile } from 'node:fs/promises';
import type { CatalogDetail, CatalogInput, CatalogInstall, CatalogOutdated, CatalogPlan, CatalogUpdate } from '../../../shared/api/catalog-contract.js';
import { EXIT_FAILURE, EXIT_OK, UsageError, type CliCommand, type CliOption, type CommandContext } from '../command.js';
import { DATA_DIR_OPTION } from '../locations.js';
import { multipleValue, stringValue } from '../parse-args.js';
import { readSecretValue } from '../read-secret.js';
import { askLine, confirm, formatOutdated, formatSearch, type SearchAnswer } from './catalog-format.js';
import { JSON_OPTION } from './clients.js';
import { callHub } from './sessions.js';

const YES_OPTION: CliOption = { name: 'yes', short: 'y', type: 'boolean', description: 'Do not ask for confirmation' };

/** `name@version` → both (a registry name has no `@`; a version never has a `/`). */
function splitNameVersion(spec: string): { name: string; version?: string } {
  const at = spec.lastIndexOf('@');
  if (at > spec.lastIndexOf('/') && at > 0) return { name: spec.slice(0, at), version: spec.slice(at + 1) };
  return { name: spec };
}

/** An input by its key (`env:API_KEY`) or, when only one has it, its name (`API_KEY`). */
function inputFor(inputs: readonly CatalogInput[], given: string, ctx: CommandContext): CatalogInput {
  const exact = inputs.find((i) => i.key === given);
  if (exact) return exact;
  const named = inputs.filter((i) => i.name === given || i.name.replace(/^-+/, '') === given);
  if (named.length === 1) return named[0]!;
  const known = inputs.map((i) => i.key).join(', ') || 'none';
  throw new UsageError(named.length > 1 ? `'${given}' names several fields; use the key (${named.map((i) => i.key).join(', ')})` : `no field '${given}' (the fields: ${known})`, ctx.commandPath);
}

async function readSecretArg(ctx: CommandContext, spec: string): Promise<[string, string]> {
  const eq = spec.indexOf('=');
  if (eq <= 0 || (spec[eq + 1] !== '@' && spec.slice(eq + 1) !== '-')) throw new UsageError('--secret takes NAME=@FILE or NAME=- (standard input); never the value itself', ctx.commandPath);
  const name = spec.slice(0, eq);
  const source = spec.slice(eq + 1);
  // Piped, or typed without echo on a terminal.
  if (source === '-') return [name, await readSecretValue(ctx.io, `${name}: `)];
  const file = source.slice(1);
  try {
    return [name, (await readFile(file, 'utf8')).replace(/\r?\n$/, '')];
  } catch (err) {
    throw new UsageError(`--secret ${name}: cannot read ${file}: ${(err as Error).message}`, ctx.commandPath);
  }
}

function printPlan(ctx: CommandContext, detail: CatalogDetail, plan: CatalogPlan): void {
  const err = ctx.io.stderr;
  err.write(`${detail.result.name} ${detail.result.version} as '${plan.serverId}' (${detail.result.namespace.kind}: ${detail.result.namespace.owner})\n`);
  err.write(`${'url' in plan.entry ? 'will connect to' : 'will run'}:\n  ${plan.preview.split('\n').join('\n  ')}\n`);
  if (plan.secrets.length > 0) err.write(`secrets to store: ${plan.secrets.map((s) => s.name).join(', ')}\n`);
  if (plan.sandbox) err.write(plan.sandbox.on ? 'in a sandbox (docs/sandbox.md; --no-sandbox to run it without)\n' : `not sandboxed${plan.sandbox.available ? ' (--no-sandbox)' : `: ${plan.sandbox.detail}`}\n`);
}

async function addRun(ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  const { name, version } = splitNameVersion(ctx.positionals[0]!);
  const serverId = stringValue(ctx.values, 'as', ctx.commandPath);
  const profile = stringValue(ctx.values, 'profile', ctx.commandPath);
  const interactive = io.stdin.isTTY === true;
  // The catalog is used: the hub refreshes its copy (at most hourly) before the name is looked up.
  await callHub(ctx, 'catalog.refresh', {});
  const detail = await callHub<CatalogDetail>(ctx, 'catalog.detail', { name, ...(version ? { version } : {}) });
  const optionId = stringValue(ctx.values, 'option', ctx.commandPath) ?? detail.options.find((o) => !o.unsupported)?.id;
  const option = detail.options.find((o) => o.id === optionId);
  if (!option) throw new UsageError(`${name} has no option '${optionId ?? ''}' (its options: ${detail.options.map((o) => o.id).join(', ') || 'none'})`, ctx.commandPath);
  if (option.unsupported) throw new Error(`${option.label}: ${option.unsupported}`);
  const values: Record<string, string> = {};
  for (const set of multipleValue(ctx.values, 'set')) {
    const eq = set.indexOf('=');
    if (eq <= 0) throw new UsageError('--set takes KEY=VALUE', ctx.commandPath);
    const input = inputFor(option.inputs, set.slice(0, eq), ctx);
    if (input.secret) throw new UsageError(`${input.key} is a secret: give it with --secret ${input.name}=@FILE or --secret ${input.name}=- (never on the command line)`, ctx.commandPath);
    values[input.key] = set.slice(eq + 1);
  }
  for (const spec of multipleValue(ctx.values, 'secret')) {
    const [given, value] = await readSecretArg(ctx, spec);
    values[inputFor(option.inputs, given, ctx).key] = value;
  }
  const select = { name, version: detail.result.version, option: option.id, ...(serverId ? { serverId } : {}), ...(ctx.values['no-sandbox'] === true ? { sandbox: false } : {}) };
  let plan = await callHub<CatalogPlan>(ctx, 'catalog.plan', { ...select, values });
  if (plan.missing.length > 0 && interactive) {
    for (const key of plan.missing) {
      const input = option.inputs.find((i) => i.key === key)!;
      const label = `${input.name}${input.description ? ` (${input.description})` : ''}${input.choices ? ` [${input.choices.join('/')}]` : ''}: `;
      values[key] = input.secret ? await readSecretValue(io, label) : await askLine(io, label);
    }
    plan = await callHub<CatalogPlan>(ctx, 'catalog.plan', { ...select, values });
  }
  printPlan(ctx, detail, plan);
  if (plan.runtimeMissing) {
    io.stderr.write(`patchbay: ${plan.runtimeMissing}: install it, then run this again (nothing was written)\n`);
    return EXIT_FAILURE;
  }
  if (plan.missing.length > 0) {
    const hints = plan.missing.map((key) => {
      const input = option.inputs.find((i) => i.key === key);
      return input?.secret ? `  ${key}: --secret ${input.name}=@FILE (or =- for standard input)` : `  ${key}: --set ${input?.name ?? key}=VALUE`;
    });
    io.stderr.write(`patchbay: required values are missing (nothing was written):\n${hints.join('\n')}\n`);
    return EXIT_FAILURE;
  }
  if (interactive && ctx.values.yes !== true && !(await confirm(io, 'Install? [y/N] '))) {
    io.stderr.write('patchbay: cancelled; nothing was written\n');
    return EXIT_FAILURE;
  }
  const installed = await callHub<CatalogInstall>(ctx, 'catalog.install', { ...select, values, ...(profile ? { profile } : {}) });
  if (ctx.values.json === true) io.stdout.write(JSON.stringify(installed, null, 2) + '\n');
  const where = installed.profile ? ` and added to profile '${installed.profile}'` : '';
  io.stderr.write(`patchbay: installed '${installed.serverId}'${where}; its tools wait for approval: patchbay profiles approve ${installed.profile ?? 'default'} ${installed.serverId}\n`);
  return EXIT_OK;
}

async function updateRun(ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  const serverId = ctx.positionals[0]!;
  const version = stringValue(ctx.values, 'version', ctx.commandPath);
  await callHub(ctx, 'catalog.refresh', {});
  const shown = await callHub<CatalogUpdate>(ctx, 'catalog.update', { serverId, ...(version ? { version } : {}) });
  if (ctx.values.json !== true) io.stdout.write(shown.diff);
  // Whatever --yes says: applying the same version again would only put its tools back to waiting for approval.
  if (shown.from === shown.to) {
    io.stderr.write(`patchbay: '${serverId}' is at ${shown.to} already\n`);
    return EXIT_OK;
  }
  if (ctx.values.yes !== true) {
    if (io.stdin.isTTY !== true) {
      io.stderr.write(`patchbay: give --yes to apply the update of '${serverId}' (${shown.from} → ${shown.to})\n`);
      return EXIT_FAILURE;
    }
    if (!(await confirm(io, `Update '${serverId}' ${shown.from} → ${shown.to}? [y/N] `))) {
      io.stderr.write('patchbay: cancelled; nothing was written\n');
      return EXIT_FAILURE;
    }
  }
  const applied = await callHub<CatalogUpdate>(ctx, 'catalog.update', { serverId, version: shown.to, apply: true });
  if (ctx.values.json === true) io.stdout.write(JSON.stringify(applied, null, 2) + '\n');
  io.stderr.write(`patchbay: updated '${serverId}' to ${applied.to}; its tools wait for approval again (patchbay profiles approve PROFILE ${serverId})\n`);
  return EXIT_OK;
}

export const searchCommand: CliCommand = {
  name: 'search',
  summary: 'Search the MCP registries for servers (the hub\'s cached copy, refreshed at most hourly)',
  details: 'Each result: name, version, who stands behind the name (a GitHub account or a domain the registry checked), how it runs (npm, pypi, oci, nuget, remote) and the registry. No words: the most recently updated.',
  positionals: [{ name: 'WORDS', description: 'What to look for (typos are forgiven)', optional: true, variadic: true }],
  options: [{ name: 'limit', type: 'string', valueName: 'N', description: 'At most N results (default 20)' }, JSON_OPTION, DATA_DIR_OPTION],
  examples: [
    { command: 'patchbay search weather', description: 'Servers about the weather' },
    { command: 'patchbay search github issues --json --limit 5', description: 'The first five, as JSON' },
  ],
  async run(ctx) {
    const raw = stringValue(ctx.values, 'limit', ctx.commandPath);
    const limit = raw === undefined ? 20 : Number(raw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new UsageError('--limit must be a whole number from 1 to 200', ctx.commandPath);
    const answer = await callHub<SearchAnswer>(ctx, 'catalog.search', { query: ctx.positionals.join(' '), limit });
    ctx.io.stdout.write(ctx.values.json === true ? JSON.stringify(answer, null, 2) + '\n' : formatSearch(answer));
    for (const r of answer.registries) if (r.error) ctx.io.stderr.write(`patchbay: registry ${r.label} (${r.url}): ${r.error}; showing the last copy\n`);
    return EXIT_OK;
  },
};

export const addCommand: CliCommand = {
  name: 'add',
  summary: 'Install a server from an MCP registry: shows what will run, stores its secrets, writes a pinned entry',
  details: [
    'NAME is the registry name (io.github.user/weather), optionally @VERSION (default: the latest); the version is pinned.',
    'Fields are env:NAME, header:NAME, url:VAR, arg:--flag or arg:<index>; --set and --secret also take a field\'s bare name.',
    'On a terminal, required values left are asked for (secrets without echo) and the install is confirmed.',
    'The new server\'s tools wait for approval in every profile (patchbay profiles approve).',
  ].join('\n'),
  positionals: [{ name: 'NAME[@VERSION]', description: 'The server\'s registry name, optionally with a version' }],
  options: [
    { name: 'as', type: 'string', valueName: 'ID', description: 'Server id to install as (default: from the name: weather, then weather-2…)' },
    { name: 'profile', type: 'string', valueName: 'P', description: 'Also add it to this profile' },
    { name: 'option', type: 'string', valueName: 'package:0|remote:0', description: 'Which way to run it (default: the first that can be installed)' },
    { name: 'no-sandbox', type: 'boolean', description: 'Run a package unsandboxed (default: in a sandbox wherever this machine can sandbox servers; docs/sandbox.md)' },
    { name: 'set', type: 'string', multiple: true, valueName: 'KEY=VALUE', description: 'A field\'s value (not for secrets); repeatable' },
    { name: 'secret', type: 'string', multiple: true, valueName: 'NAME=@FILE|-', description: 'A secret field\'s value from a file, or - for standard input; repeatable' },
    YES_OPTION,
    JSON_OPTION,
    DATA_DIR_OPTION,
  ],
  examples: [
    { command: 'patchbay add io.github.user/weather', description: 'Install the latest version, asking for what it needs' },
    { command: 'printf %s "$KEY" | patchbay add io.github.user/weather@1.2.0 --set units=metric --secret API_KEY=- --profile work', description: 'Without questions: a pinned version, a value, a secret from standard input' },
  ],
  run: addRun,
};

export const outdatedCommand: CliCommand = {
  name: 'outdated',
  summary: 'List servers installed from a registry that have a newer version',
  options: [JSON_OPTION, DATA_DIR_OPTION],
  examples: [{ command: 'patchbay outdated', description: 'What could be updated' }],
  async run(ctx) {
    await callHub(ctx, 'catalog.refresh', {});
    const answer = await callHub<CatalogOutdated>(ctx, 'catalog.outdated', {});
    ctx.io.stdout.write(ctx.values.json === true ? JSON.stringify(answer, null, 2) + '\n' : formatOutdated(answer));
    return EXIT_OK;
  },
};

export const updateCommand: CliCommand = {
  name: 'update',
  summary: 'Update a server installed from a registry: prints the change of its entry, confirms, applies',
  details: 'The same way of running it and the values already in the entry are kept (secret references too). Its tools wait for approval again.',
  positionals: [{ name: 'SERVER', description: 'Server id from the config' }],
  options: [{ name: 'version', type: 'string', valueName: 'V', description: 'Update to this version (default: the latest)' }, YES_OPTION, JSON_OPTION, DATA_DIR_OPTION],
  examples: [
    { command: 'patchbay update weather', description: 'Show the change and confirm it' },
    { command: 'patchbay update weather --yes --version 1.3.0', description: 'Apply a given version without asking' },
  ],
  run: updateRun,
};
