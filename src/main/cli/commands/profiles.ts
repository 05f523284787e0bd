/**
 * `patchbay profiles …`: the profiles of a running hub (docs/profiles.md) — list and show them
 * (with token costs and changed tools), create and delete them, change their options (on-demand
 * tools among them), add and remove servers, turn tools on and off, approve changed tools. Everything goes through the hub's API (found through
 * <data dir>/hub.json), so a change reaches connected clients at once.
 */
import type { ProfileSummary, ProfileView } from '../../../shared/api/profiles-contract.js';
import { EXIT_OK, UsageError, type CliCommand, type CliOption, type CommandContext } from '../command.js';
import { DATA_DIR_OPTION } from '../locations.js';
import { multipleValue, stringValue } from '../parse-args.js';
import { formatProfile, formatProfiles } from './profiles-format.js';
import { callHub } from './sessions.js';

const PROFILE = { name: 'PROFILE', description: 'Profile name ("default" is the profile of /mcp: every enabled server)' };
const SERVER = { name: 'SERVER', description: 'Server id from the config' };
const JSON_OPTION: CliOption = { name: 'json', type: 'boolean', description: 'Print JSON instead of a table' };
const KIND_OPTIONS: CliOption[] = [
  { name: 'prompt', type: 'boolean', description: 'ITEM is a prompt, not a tool' },
  { name: 'resource', type: 'boolean', description: 'ITEM is a resource URI, not a tool' },
];
const PROFILE_OPTIONS: CliOption[] = [
  { name: 'description', type: 'string', valueName: 'TEXT', description: 'One line saying what the profile is for' },
  { name: 'no-prefix', type: 'boolean', description: "Keep tool and prompt names as the servers name them (names two servers share take a suffix)" },
  { name: 'prefix', type: 'boolean', description: 'Qualify names as <server>__<tool> (the default)' },
  { name: 'hold', type: 'string', valueName: 'remote|always|never', description: 'Hold changed tools back until approved: for remote servers (default), always, never' },
  { name: 'on-demand', type: 'boolean', description: 'On-demand tools: clients get only the pinned tools and three meta-tools that find, describe and call the rest' },
  { name: 'all-tools', type: 'boolean', description: 'Every tool listed (the default): turns on-demand tools off for the profile (client entries still apply)' },
  { name: 'pin', type: 'string', multiple: true, valueName: 'TOOL', description: 'Keep a tool listed with on-demand tools (its name in the profile, or a glob); repeatable' },
  { name: 'unpin', type: 'string', multiple: true, valueName: 'TOOL', description: 'Take a tool (or glob) out of the pinned list; repeatable' },
  { name: 'client', type: 'string', multiple: true, valueName: 'ID=on|off|default', description: 'On-demand tools for one client (its client token\'s id: cursor, claude-code, …): on, off, or the profile\'s default; repeatable' },
];

function print(ctx: CommandContext, value: unknown, text: string): number {
  ctx.io.stdout.write(ctx.values.json === true ? JSON.stringify(value, null, 2) + '\n' : text);
  return EXIT_OK;
}

function options(ctx: CommandContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const description = stringValue(ctx.values, 'description', ctx.commandPath);
  if (description !== undefined) out.description = description;
  if (ctx.values.prefix === true && ctx.values['no-prefix'] === true) throw new UsageError('give --prefix or --no-prefix, not both', ctx.commandPath);
  if (ctx.values.prefix === true) out.prefix = true;
  if (ctx.values['no-prefix'] === true) out.prefix = false;
  const hold = stringValue(ctx.values, 'hold', ctx.commandPath);
  if (hold !== undefined) {
    if (hold !== 'remote' && hold !== 'always' && hold !== 'never') throw new UsageError('--hold must be remote, always or never', ctx.commandPath);
    out.holdChangedTools = hold;
  }
  const onDemand = onDemandOptions(ctx);
  if (onDemand) out.onDemand = onDemand;
  return out;
}

/** `--on-demand`, `--all-tools`, `--pin`, `--unpin`, `--client ID=on|off|default` as profiles.update's `onDemand`. */
function onDemandOptions(ctx: CommandContext): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  if (ctx.values['on-demand'] === true && ctx.values['all-tools'] === true) throw new UsageError('give --on-demand or --all-tools, not both', ctx.commandPath);
  if (ctx.values['on-demand'] === true) out.enabled = true;
  if (ctx.values['all-tools'] === true) out.enabled = false;
  const list = (name: string): string[] => {
    const items = multipleValue(ctx.values, name);
    if (items.some((v) => v.trim() === '')) throw new UsageError(`--${name} must not be empty`, ctx.commandPath);
    return items;
  };
  const pin = list('pin');
  const unpin = list('unpin');
  if (pin.length > 0) out.pin = pin;
  if (unpin.length > 0) out.unpin = unpin;
  const clients: Record<string, boolean | null> = {};
  for (const entry of list('client')) {
    const match = /^([^=]+)=(on|off|default)$/.exec(entry.trim());
    if (!match) throw new UsageError(`--client takes ID=on, ID=off or ID=default (e.g. --client cursor=on), not '${entry}'`, ctx.commandPath);
    clients[match[1]!.trim()] = match[2] === 'default' ? null : match[2] === 'on';
  }
  if (Object.keys(clients).length > 0) out.clients = clients;
  return Object.keys(out).length > 0 ? out : undefined;
}

function changed(ctx: CommandContext, summary: ProfileSummary, what: string): number {
  ctx.io.stderr.write(`patchbay: ${what}; profile '${summary.name}' is at ${summary.url}\n`);
  return EXIT_OK;
}

function kind(ctx: CommandContext): 'tools' | 'prompts' | 'resources' {
  if (ctx.values.prompt === true && ctx.values.resource === true) throw new UsageError('give --prompt or --resource, not both', ctx.commandPath);
  return ctx.values.prompt === true ? 'prompts' : ctx.values.resource === true ? 'resources' : 'tools';
}

function toggle(enabled: boolean): CliCommand {
  const verb = enabled ? 'enable' : 'disable';
  return {
    name: verb,
    summary: `Turn ${enabled ? 'on' : 'off'} a tool (or --prompt, --resource) of a server in a profile; clients get list_changed`,
    positionals: [PROFILE, SERVER, { name: 'ITEM', description: 'The tool (prompt, resource URI) as the server names it' }],
    options: [...KIND_OPTIONS, DATA_DIR_OPTION],
    examples: [
      { command: `patchbay profiles ${verb} work github ${enabled ? 'create_issue' : 'delete_repo'}`, description: `${enabled ? 'Expose' : 'Hide'} one tool of github in "work"` },
      { command: `patchbay profiles ${verb} default fs file:///etc/hosts --resource`, description: `${enabled ? 'Expose' : 'Hide'} a resource in the default profile` },
    ],
    async run(ctx) {
      const [name, server, item] = ctx.positionals as [string, string, string];
      const k = kind(ctx);
      const summary = await callHub<ProfileSummary>(ctx, 'profiles.setItem', { name, server, kind: k, item, enabled });
      return changed(ctx, summary, `${k.slice(0, -1)} '${item}' of '${server}' is ${enabled ? 'on' : 'off'}`);
    },
  };
}

/** `set` and `update` are one command: `update` is the API's word (profiles.update), `set` the older one. */
function setCommand(name: 'set' | 'update'): CliCommand {
  return {
    name,
    summary: `Change a profile's options (description, prefixing, holding changed tools, on-demand tools)${name === 'update' ? '; the same as set' : ''}`,
    details: 'On-demand tools: --on-demand lists only the pinned tools and three meta-tools (patchbay__find_tools, patchbay__describe_tool, patchbay__call_tool); --client decides per client, over the profile\'s setting.',
    positionals: [PROFILE],
    options: [...PROFILE_OPTIONS, DATA_DIR_OPTION],
    examples: [
      { command: `patchbay profiles ${name} work --hold always`, description: 'Hold every changed tool of "work" until approved' },
      { command: `patchbay profiles ${name} work --on-demand --pin fs__read_file --client claude-code=off`, description: 'On-demand tools for "work", fs__read_file always listed, Claude Code still gets every tool' },
      { command: `patchbay profiles ${name} work --unpin fs__read_file --client claude-code=default`, description: 'Unpin a tool; Claude Code follows the profile again' },
    ],
    async run(ctx) {
      const input = options(ctx);
      if (Object.keys(input).length === 0) {
        throw new UsageError('nothing to change: give --description, --prefix, --no-prefix, --hold, --on-demand, --all-tools, --pin, --unpin or --client', ctx.commandPath);
      }
      return changed(ctx, await callHub<ProfileSummary>(ctx, 'profiles.update', { name: ctx.positionals[0], ...input }), 'updated');
    },
  };
}

const subcommands: CliCommand[] = [
  {
    name: 'list',
    summary: 'List the profiles (the built-in default included), their servers and endpoints',
    options: [JSON_OPTION, DATA_DIR_OPTION],
    examples: [{ command: 'patchbay profiles list', description: 'Every profile of the running hub' }],
    async run(ctx) {
      const profiles = await callHub<ProfileSummary[]>(ctx, 'profiles.list', {});
      return print(ctx, profiles, formatProfiles(profiles));
    },
  },
  {
    name: 'show',
    summary: 'Show a profile: every tool with its state and token cost, totals against client limits, changed tools with diffs',
    details: 'Token counts are what a client sends a model per tool (name, title, description, schemas), counted with the o200k_base tokenizer.',
    positionals: [PROFILE],
    options: [{ name: 'refresh', type: 'boolean', description: 'Ask every server for its lists now instead of using what it last said' }, JSON_OPTION, DATA_DIR_OPTION],
    examples: [
      { command: 'patchbay profiles show default', description: 'What /mcp exposes and what it costs' },
      { command: 'patchbay profiles show work --refresh --json', description: 'The same for "work", freshly listed, as JSON' },
    ],
    async run(ctx) {
      const view = await callHub<ProfileView>(ctx, 'profiles.show', { name: ctx.positionals[0], refresh: ctx.values.refresh === true });
      return print(ctx, view, formatProfile(view));
    },
  },
  {
    name: 'create',
    summary: 'Create a profile (served at /mcp/@PROFILE)',
    positionals: [PROFILE],
    options: [{ name: 'servers', type: 'string', valueName: 'a,b', description: 'Its servers (comma-separated ids; default: every enabled server)' }, ...PROFILE_OPTIONS, DATA_DIR_OPTION],
    examples: [
      { command: 'patchbay profiles create work --servers github,fs', description: 'A profile of two servers' },
      { command: 'patchbay profiles create docs --servers context7 --no-prefix', description: 'One server, tool names unchanged' },
    ],
    async run(ctx) {
      const list = stringValue(ctx.values, 'servers', ctx.commandPath);
      const servers = list?.split(',').map((s) => s.trim()).filter(Boolean);
      const summary = await callHub<ProfileSummary>(ctx, 'profiles.create', { name: ctx.positionals[0], ...(servers ? { servers } : {}), ...options(ctx) });
      return changed(ctx, summary, 'created');
    },
  },
  setCommand('set'),
  setCommand('update'),
  {
    name: 'delete',
    summary: 'Delete a profile from config.json; its sessions end',
    positionals: [PROFILE],
    options: [DATA_DIR_OPTION],
    examples: [{ command: 'patchbay profiles delete work', description: 'Remove the profile "work"' }],
    async run(ctx) {
      const { removed } = await callHub<{ removed: boolean }>(ctx, 'profiles.remove', { name: ctx.positionals[0] });
      ctx.io.stderr.write(removed ? `patchbay: deleted profile '${ctx.positionals[0]}'\n` : `patchbay: there is no profile '${ctx.positionals[0]}' in config.json\n`);
      return EXIT_OK;
    },
  },
  {
    name: 'add',
    summary: 'Add a server to a profile',
    positionals: [PROFILE, SERVER],
    options: [DATA_DIR_OPTION],
    examples: [{ command: 'patchbay profiles add work linear', description: 'Serve linear in "work" too' }],
    async run(ctx) {
      const [name, server] = ctx.positionals as [string, string];
      return changed(ctx, await callHub<ProfileSummary>(ctx, 'profiles.addServer', { name, server }), `added '${server}'`);
    },
  },
  {
    name: 'remove',
    summary: 'Remove a server from a profile',
    positionals: [PROFILE, SERVER],
    options: [DATA_DIR_OPTION],
    examples: [{ command: 'patchbay profiles remove default browser', description: 'Leave browser out of /mcp (the other servers are then listed by name)' }],
    async run(ctx) {
      const [name, server] = ctx.positionals as [string, string];
      return changed(ctx, await callHub<ProfileSummary>(ctx, 'profiles.removeServer', { name, server }), `removed '${server}'`);
    },
  },
  toggle(true),
  toggle(false),
  {
    name: 'approve',
    summary: 'Approve changed tools of a profile (all, one server\'s, or one); held tools return to clients',
    positionals: [PROFILE, { ...SERVER, optional: true }, { name: 'TOOL', description: 'The tool as the server names it', optional: true }],
    options: [DATA_DIR_OPTION],
    examples: [
      { command: 'patchbay profiles show work', description: 'See what changed first (the diffs are at the end)' },
      { command: 'patchbay profiles approve work github create_issue', description: 'Approve one tool' },
    ],
    async run(ctx) {
      const [name, server, tool] = ctx.positionals;
      const { approved } = await callHub<{ approved: Array<{ server: string; tool: string }> }>(ctx, 'profiles.approve', { name, ...(server ? { server } : {}), ...(tool ? { tool } : {}) });
      for (const a of approved) ctx.io.stderr.write(`patchbay: approved ${a.server}/${a.tool}\n`);
      return EXIT_OK;
    },
  },
];

export const profilesCommand: CliCommand = {
  name: 'profiles',
  summary: 'Profiles: several servers as one endpoint (/mcp, /mcp/@NAME), their tools, token costs and changed tools',
  subcommands,
};
