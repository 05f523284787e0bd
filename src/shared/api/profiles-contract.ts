/**
 * Profiles as the UI and the CLI manage them: named sets of servers served as one endpoint each
 * (`/mcp` the default profile, `/mcp/@<name>` a named one), with which tools, prompts and
 * resources each member exposes, what the exposed tools cost in a model's context, and the tools
 * whose definitions changed since they were approved (docs/profiles.md).
 */
import { z } from 'zod';
import { holdChangedToolsSchema, PROFILE_NAME_PATTERN, SERVER_ID_PATTERN } from '../config-schema.js';
import { call, event } from './contract.js';

export const profileNameSchema = z.string().regex(PROFILE_NAME_PATTERN, 'use letters, digits, ".", "_" and "-" (max 64), starting with a letter or digit');
const serverIdSchema = z.string().regex(SERVER_ID_PATTERN, 'not a server id');

export const profileMemberSummarySchema = z.object({
  server: z.string(),
  /** From the config: served, disabled there, or not configured at all. */
  state: z.enum(['enabled', 'disabled', 'missing']),
  kind: z.enum(['stdio', 'remote']).optional(),
  /** Named in the profile (not only through "*"). */
  explicit: z.boolean(),
});

export const profileSummarySchema = z.object({
  name: z.string(),
  /** The aggregated endpoint. */
  url: z.string(),
  /** The default profile as Patchbay defines it (not written in config.json). */
  builtIn: z.boolean(),
  description: z.string().optional(),
  prefix: z.boolean(),
  holdChangedTools: holdChangedToolsSchema,
  members: z.array(profileMemberSummarySchema),
  /** Live aggregated sessions. */
  sessions: z.number().int(),
  /** Tools whose definitions changed since they were approved. */
  changedTools: z.number().int(),
});

export const profileToolSchema = z.object({
  /** The server's own name. */
  name: z.string(),
  /** The name clients see. */
  exposedName: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  /** Allowed by the member's rules. */
  enabled: z.boolean(),
  /** A deny glob (not the exact name) that refuses it: a toggle cannot turn it on. */
  deniedBy: z.string().optional(),
  /** For enabled tools: `new` (first seen now), `pinned` (as approved), `changed` (since approved). */
  pin: z.enum(['new', 'pinned', 'changed']).optional(),
  /** Changed, and held back from clients until approved. */
  held: z.boolean(),
  /** An MCP App's tool only its app calls: not in the model's list (nor the totals), callable. */
  appOnly: z.boolean().optional(),
  /** Tokens of what a client sends a model for it (name, title, description, schemas). */
  tokens: z.number().int(),
  /** Listed with on-demand tools too: its exposed name is in (or matched by) `onDemand.pinned`. */
  onDemandPinned: z.boolean().optional(),
  /** The pattern of `onDemand.pinned` (not the exact name) that pins it: unpinning the name alone cannot. */
  onDemandPinnedBy: z.string().optional(),
});

export const profileItemSchema = z.object({
  name: z.string(),
  exposedName: z.string(),
  title: z.string().optional(),
  enabled: z.boolean(),
});

export const profileResourceSchema = z.object({
  /** The URI, or the URI template. */
  uri: z.string(),
  name: z.string().optional(),
  template: z.boolean(),
  enabled: z.boolean(),
  /** Another member earlier in the profile claims the same URI and wins it. */
  shadowedBy: z.string().optional(),
});

export const profileMemberViewSchema = profileMemberSummarySchema.extend({
  /** Whether the hub could reach it when its lists were last read. */
  reach: z.enum(['up', 'down', 'unknown']),
  error: z.string().optional(),
  /** ISO time its lists were last read. */
  updatedAt: z.string().optional(),
  tools: z.array(profileToolSchema),
  prompts: z.array(profileItemSchema),
  resources: z.array(profileResourceSchema),
  /** Exposed tools and their tokens. */
  totals: z.object({ tools: z.number().int(), tokens: z.number().int() }),
});

export const limitWarningSchema = z.object({
  client: z.string(),
  kind: z.enum(['tools', 'tokens']),
  limit: z.number(),
  value: z.number(),
  message: z.string(),
});

export const toolChangeSchema = z.object({
  server: z.string(),
  tool: z.string(),
  approvedAt: z.string(),
  seenAt: z.string(),
  /** Unified diff from the approved definition to the current one. */
  diff: z.string(),
});

export const profileViewSchema = profileSummarySchema.extend({
  members: z.array(profileMemberViewSchema),
  totals: z.object({ tools: z.number().int(), tokens: z.number().int() }),
  warnings: z.array(limitWarningSchema),
  /**
   * On-demand tools (the profile's `onDemand`): whether they are on (for everyone; `clients` per
   * client id), and what a client would carry with them — the pinned tools and the three
   * meta-tools — against the same client limits as `totals`.
   */
  onDemand: z
    .object({
      enabled: z.boolean(),
      pinned: z.array(z.string()),
      clients: z.record(z.string(), z.boolean()),
      totals: z.object({ tools: z.number().int(), tokens: z.number().int() }),
      warnings: z.array(limitWarningSchema),
    })
    .optional(),
  changes: z.array(toolChangeSchema),
  /** The tokenizer the counts come from. */
  tokenizer: z.string(),
});

const pinnedNameSchema = z.string().min(1, 'a tool name must not be empty').max(1024);

/**
 * A change of on-demand tools (written as the profile's `onDemand` block, kept minimal): on or off
 * for the profile; the pinned list set whole, or tools pinned and unpinned by exposed name; per
 * client id on, off, or `null` for the profile's default.
 */
export const onDemandChangeSchema = z.object({
  enabled: z.boolean().optional(),
  pinned: z.array(pinnedNameSchema).optional(),
  pin: z.array(pinnedNameSchema).optional(),
  unpin: z.array(pinnedNameSchema).optional(),
  // Client ids are checked by the engine (on-demand-edits.ts), which can name the bad one.
  clients: z.record(z.string(), z.boolean().nullable()).optional(),
});

const optionsSchema = {
  description: z.string().max(500).optional(),
  prefix: z.boolean().optional(),
  holdChangedTools: holdChangedToolsSchema.optional(),
  onDemand: onDemandChangeSchema.optional(),
};

export const profilesContract = {
  'profiles.list': call(z.object({}), z.array(profileSummarySchema), 'Every profile (the built-in default included) with its members and endpoint'),
  'profiles.show': call(
    z.object({ name: z.string(), refresh: z.boolean().optional() }),
    profileViewSchema,
    'A profile in full: every tool of every member with its toggle and token cost, totals against client limits, changed tools with their diffs',
  ),
  'profiles.create': call(
    z.object({ name: profileNameSchema, servers: z.array(z.union([serverIdSchema, z.literal('*')])).optional(), ...optionsSchema }),
    profileSummarySchema,
    'Add a profile to config.json',
  ),
  'profiles.remove': call(z.object({ name: z.string() }), z.object({ removed: z.boolean() }), 'Remove a profile; its sessions end'),
  'profiles.update': call(
    z.object({ name: z.string(), ...optionsSchema }),
    profileSummarySchema,
    "Change a profile's options (description, prefix, holdChangedTools, onDemand: on/off, pinned tools, per client)",
  ),
  'profiles.addServer': call(z.object({ name: z.string(), server: serverIdSchema }), profileSummarySchema, 'Add a server to a profile'),
  'profiles.removeServer': call(z.object({ name: z.string(), server: z.string() }), profileSummarySchema, 'Remove a server from a profile'),
  'profiles.setItem': call(
    z.object({ name: z.string(), server: z.string(), kind: z.enum(['tools', 'prompts', 'resources']), item: z.string().min(1), enabled: z.boolean() }),
    profileSummarySchema,
    'Turn one tool, prompt or resource of a member on or off; connected clients get list_changed',
  ),
  'profiles.approve': call(
    z.object({ name: z.string(), server: z.string().optional(), tool: z.string().optional() }),
    z.object({ approved: z.array(z.object({ server: z.string(), tool: z.string() })) }),
    'Approve changed tools (all of a profile, one server\'s, or one); held tools return to clients',
  ),
  'profiles.changed': event(z.object({ name: z.string() }), 'A profile changed: its config, its members\' lists, or its pins'),
} as const;

export type ProfileSummary = z.infer<typeof profileSummarySchema>;
export type ProfileView = z.infer<typeof profileViewSchema>;
export type ProfileMemberView = z.infer<typeof profileMemberViewSchema>;
export type ProfileTool = z.infer<typeof profileToolSchema>;
export type ToolChange = z.infer<typeof toolChangeSchema>;
export type OnDemandChange = z.infer<typeof onDemandChangeSchema>;
