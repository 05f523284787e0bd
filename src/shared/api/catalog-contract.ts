/**
 * The catalog: servers found in MCP registries (the official MCP Registry, API v0.1, or a
 * company's own), searched locally from a cached copy, and installed as config entries with
 * their secrets in the store and their tools waiting for approval (docs/catalog.md).
 *
 * Documents are `server.json` (schema 2025-12-11); the catalog never runs anything a request
 * names: an install turns the document the user saw into an entry, and the user sees the exact
 * command or URL first (`catalog.plan`).
 */
import { z } from 'zod';
import { serverConfigSchema } from '../config-schema.js';
import { call, event } from './contract.js';

/** A configured registry and how fresh our copy of it is. */
export const catalogRegistrySchema = z.object({
  url: z.string(),
  /** A short label for results ("official", "acme"). */
  label: z.string(),
  /** Where the entries now searched came from: a refresh, the cached copy on disk, or the snapshot shipped with Patchbay. */
  source: z.enum(['network', 'cache', 'snapshot', 'none']),
  /** ISO time of the last successful refresh (absent: never). */
  fetchedAt: z.string().optional(),
  /** Entries (latest versions) known from this registry. */
  count: z.number().int(),
  /** The last refresh's failure, worded for a person ("the registry answered 500", "not JSON at byte 12"). */
  error: z.string().optional(),
});

/** How far a namespace can be trusted: `github` (io.github.<user>/…, checked by the registry against that account), `domain` (reverse-DNS, checked by DNS or HTTP), `other`. */
export const namespaceSchema = z.object({
  kind: z.enum(['github', 'domain', 'other']),
  /** The GitHub account or the domain (`example.com` for `com.example/…`). */
  owner: z.string(),
});

/** One search result: the latest version of a server in one registry. */
export const catalogResultSchema = z.object({
  /** The server.json `name` (`io.github.user/weather`). */
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  version: z.string(),
  /** The registry's URL it came from (a `catalogRegistrySchema.url`). */
  registry: z.string(),
  namespace: namespaceSchema,
  repositoryUrl: z.string().optional(),
  websiteUrl: z.string().optional(),
  /** Package registries of its packages (`npm`, `pypi`, `oci`, `nuget`, `mcpb`), in document order, unique. */
  packageTypes: z.array(z.string()),
  /** Whether it offers a remote (Streamable HTTP or SSE endpoint). */
  remote: z.boolean(),
  /** ISO time the registry last updated it (`_meta` `io.modelcontextprotocol.registry/official`.updatedAt, or publishedAt). */
  updatedAt: z.string().optional(),
  /** Server ids in config.json installed from this name (any version). */
  installed: z.array(z.string()),
});

/** A field of the install form, from a package's `environmentVariables` and arguments, or a remote's `headers` and URL `variables`. */
export const catalogInputSchema = z.object({
  /** Unique within an option; the key of `values` in plan/install (`env:API_KEY`, `header:X-Key`, `url:tenant`, `arg:--port`, `arg:2`). */
  key: z.string(),
  kind: z.enum(['env', 'header', 'url', 'argument']),
  /** The variable, header, flag or value hint, as the document names it. */
  name: z.string(),
  description: z.string().optional(),
  required: z.boolean(),
  /** Goes to the secret store, referenced as `${secret:…}`; never written into config.json. */
  secret: z.boolean(),
  default: z.string().optional(),
  choices: z.array(z.string()).optional(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']),
  placeholder: z.string().optional(),
});

/** One way to run a server: one of its packages or one of its remotes. */
export const catalogOptionSchema = z.object({
  /** `package:<index>` or `remote:<index>` in the document. */
  id: z.string(),
  kind: z.enum(['package', 'remote']),
  /** "npm @scope/name 1.2.3", "remote https://…/mcp (Streamable HTTP)". */
  label: z.string(),
  registryType: z.string().optional(),
  transport: z.enum(['stdio', 'streamable-http', 'sse']),
  /** For a package: the command that runs it here (npx, uvx, docker or podman, dnx) and whether it was found on PATH. */
  runtime: z.object({ command: z.string(), available: z.boolean(), hint: z.string().optional() }).optional(),
  /** Why this option cannot be installed at all (an mcpb bundle, an unknown registry type), when it cannot. */
  unsupported: z.string().optional(),
  inputs: z.array(catalogInputSchema),
});

export const catalogVersionSchema = z.object({ version: z.string(), publishedAt: z.string().optional(), isLatest: z.boolean() });

export const catalogDetailSchema = z.object({
  result: catalogResultSchema,
  /** The server.json document of the version shown, as the registry sent it. */
  document: z.record(z.string(), z.unknown()),
  versions: z.array(catalogVersionSchema),
  options: z.array(catalogOptionSchema),
});

const selectSchema = z.object({
  name: z.string().min(1).max(200),
  /** The registry's URL; omitted: the first registry that has the name. */
  registry: z.string().optional(),
  /** The version the user saw; omitted: the latest. Always pinned in what is written. */
  version: z.string().optional(),
  /** A `catalogOptionSchema.id`; omitted: the first installable option. */
  option: z.string().optional(),
  /** Form values by input key. Secret values go to the secret store only. */
  values: z.record(z.string(), z.string()).optional(),
  /** The server id to install as; omitted: derived from the name (`weather`, then `weather-2`…). */
  serverId: z.string().optional(),
  /** Run a package in a sandbox (docs/sandbox.md); omitted: yes wherever this machine can sandbox servers. */
  sandbox: z.boolean().optional(),
});

export const catalogPlanSchema = z.object({
  serverId: z.string(),
  /** The entry that would be written: secret values as `${secret:NAME}` references. */
  entry: serverConfigSchema,
  /** What will run or be reached, exactly: a shell-quoted command line, or the URL. */
  preview: z.string(),
  /** Secret names that would be written, each with the input key it holds. */
  secrets: z.array(z.object({ name: z.string(), key: z.string() })),
  /** Required inputs without a value (install refuses while any is left). */
  missing: z.array(z.string()),
  /** The runtime this option needs and this machine lacks, worded with what to install (install refuses). */
  runtimeMissing: z.string().optional(),
  /** For a package: whether it would run sandboxed, and whether this machine can sandbox servers at all (and why not). */
  sandbox: z.object({ on: z.boolean(), available: z.boolean(), detail: z.string() }).optional(),
});

export const catalogInstallSchema = catalogPlanSchema.extend({
  /** The profile the server was added to, when asked. */
  profile: z.string().optional(),
  /** Its tools wait for approval in every profile that exposes it (docs/profiles.md, Tool pinning). */
  pendingApproval: z.literal(true),
});

export const catalogOutdatedSchema = z.object({
  servers: z.array(z.object({ serverId: z.string(), name: z.string(), registry: z.string(), installed: z.string(), latest: z.string() })),
});

export const catalogUpdateSchema = z.object({
  serverId: z.string(),
  from: z.string(),
  to: z.string(),
  /** The entry's change, as a unified diff of its JSON (secret references, never values). */
  diff: z.string(),
  entry: serverConfigSchema,
  applied: z.boolean(),
});

export const catalogContract = {
  'catalog.registries': call(z.object({}), z.array(catalogRegistrySchema), 'The configured registries and how fresh each copy is'),
  'catalog.refresh': call(
    z.object({ force: z.boolean().optional() }),
    z.array(catalogRegistrySchema),
    'Refresh the local copies (at most hourly unless forced; a failure keeps the last copy)',
  ),
  'catalog.search': call(
    z.object({ query: z.string().max(500), limit: z.number().int().min(1).max(200).optional(), registry: z.string().optional() }),
    z.object({ results: z.array(catalogResultSchema), total: z.number().int(), registries: z.array(catalogRegistrySchema) }),
    'Search the cached catalog (typo-tolerant; an empty query lists recently updated servers)',
  ),
  'catalog.detail': call(
    z.object({ name: z.string().min(1).max(200), registry: z.string().optional(), version: z.string().optional() }),
    catalogDetailSchema,
    'One server: its document, versions, and the ways to run it with their install forms',
  ),
  'catalog.plan': call(selectSchema, catalogPlanSchema, 'What an install would write and run, without writing anything'),
  'catalog.install': call(
    selectSchema.extend({ profile: z.string().optional() }),
    catalogInstallSchema,
    'Install: secrets to the store, then the pinned entry to config.json (all or nothing); tools wait for approval',
  ),
  'catalog.outdated': call(z.object({}), catalogOutdatedSchema, 'Installed servers whose registry has a newer version (from the cached copy)'),
  'catalog.update': call(
    z.object({ serverId: z.string(), version: z.string().optional(), apply: z.boolean().optional() }),
    catalogUpdateSchema,
    'Show (apply: false) or apply the update of an installed server; applying re-pins its tools for approval',
  ),
  'catalog.changed': event(z.object({ registries: z.array(catalogRegistrySchema) }), 'A registry copy was refreshed (or failed to be)'),
} as const;

export type CatalogRegistry = z.infer<typeof catalogRegistrySchema>;
export type CatalogResult = z.infer<typeof catalogResultSchema>;
export type CatalogInput = z.infer<typeof catalogInputSchema>;
export type CatalogOption = z.infer<typeof catalogOptionSchema>;
export type CatalogVersion = z.infer<typeof catalogVersionSchema>;
export type CatalogDetail = z.infer<typeof catalogDetailSchema>;
export type CatalogSelect = z.infer<typeof selectSchema>;
export type CatalogPlan = z.infer<typeof catalogPlanSchema>;
export type CatalogInstall = z.infer<typeof catalogInstallSchema>;
export type CatalogOutdated = z.infer<typeof catalogOutdatedSchema>;
export type CatalogUpdate = z.infer<typeof catalogUpdateSchema>;
