/**
 * What a registry sends, checked: a `server.json` document (schema 2025-12-11; the 2025-09-29 and
 * 2025-10-17 documents still served read the same) and the v0.1 list and one-version answers.
 *
 * Loose on purpose: unknown keys are kept (the detail pane shows the whole document, and newer
 * schemas add fields), and only what Patchbay reads is checked. A document that fails is skipped
 * with a worded reason; it never breaks the rest of a page.
 */
import { z } from 'zod';
import type { DocInput, OfficialMeta, ServerDocument } from './catalog-source.js';

/** The `_meta` key under which the official registry (and registries built on its code) says what it knows of an entry. */
const OFFICIAL_META_KEY = 'io.modelcontextprotocol.registry/official';

// A format this version does not know is read as no format (a plain string field), not a broken document.
const formatSchema = z.enum(['string', 'number', 'boolean', 'filepath']).optional().catch(undefined);

const inputShape = {
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  format: formatSchema,
  value: z.string().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
};

// `variables` nest (a variable's value may itself hold `{placeholders}`), hence the lazy schema.
const inputSchema: z.ZodType<DocInput> = z.lazy(() =>
  z.looseObject({ ...inputShape, variables: z.record(z.string(), inputSchema).optional() }),
);
const variablesSchema = z.record(z.string(), inputSchema).optional();

const keyValueSchema = z.looseObject({ ...inputShape, variables: variablesSchema, name: z.string().min(1) });

const argumentSchema = z.looseObject({
  ...inputShape,
  variables: variablesSchema,
  type: z.enum(['positional', 'named']),
  name: z.string().optional(),
  valueHint: z.string().optional(),
  isRepeated: z.boolean().optional(),
});

const transportSchema = z.looseObject({
  type: z.enum(['stdio', 'streamable-http', 'sse']),
  url: z.string().optional(),
  headers: z.array(keyValueSchema).optional(),
  variables: variablesSchema,
});

const packageSchema = z.looseObject({
  registryType: z.string().min(1),
  registryBaseUrl: z.string().optional(),
  identifier: z.string().min(1),
  version: z.string().optional(),
  fileSha256: z.string().optional(),
  runtimeHint: z.string().optional(),
  transport: transportSchema,
  runtimeArguments: z.array(argumentSchema).optional(),
  packageArguments: z.array(argumentSchema).optional(),
  environmentVariables: z.array(keyValueSchema).optional(),
});

const serverDocumentSchema = z.looseObject({
  $schema: z.string().optional(),
  name: z.string().min(1).max(200),
  title: z.string().optional(),
  // Required by the schema; a registry that leaves it out still gets its entry listed.
  description: z.string().default(''),
  version: z.string().min(1),
  repository: z
    .looseObject({ url: z.string().optional(), source: z.string().optional(), id: z.string().optional(), subfolder: z.string().optional() })
    .optional()
    .catch(undefined),
  websiteUrl: z.string().optional().catch(undefined),
  packages: z.array(packageSchema).optional(),
  remotes: z.array(transportSchema).optional(),
});

const officialMetaSchema = z.looseObject({
  status: z.string().optional(),
  publishedAt: z.string().optional(),
  updatedAt: z.string().optional(),
  isLatest: z.boolean().optional(),
});

/** One item of a list, or a one-version answer: `{server, _meta}`. The document itself is checked apart (`parseEntry`). */
const entryShapeSchema = z.looseObject({ server: z.unknown(), _meta: z.record(z.string(), z.unknown()).optional() });

/** `GET /v0.1/servers` and `/versions`: items are checked one by one, so only the envelope is checked here. */
export const serverListSchema = z.looseObject({
  servers: z.array(z.unknown()),
  metadata: z.looseObject({ nextCursor: z.string().optional(), count: z.number().optional() }).optional(),
});

/** An entry as read: the document and what the registry said of it. */
export interface ParsedEntry {
  document: ServerDocument;
  official?: OfficialMeta;
}

/** When the registry last updated an entry, as it wrote it: `updatedAt`, else `publishedAt`; undefined when it said neither. */
export function updatedAt(entry: { official?: OfficialMeta }): string | undefined {
  return entry.official?.updatedAt ?? entry.official?.publishedAt;
}

/** The same in ms, for sorting and comparing (0 when the registry did not say, or not as a date). */
export function updatedTime(entry: { official?: OfficialMeta }): number {
  return Date.parse(updatedAt(entry) ?? '') || 0;
}

/** A zod failure in words: `packages.0.transport.type: Invalid option…` (the first two issues). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 2)
    .map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
    .join('; ');
}

/** Reads one `{server, _meta}` item; a failure says why, naming the entry when it has a name. */
export function parseEntry(item: unknown): { ok: true; entry: ParsedEntry } | { ok: false; reason: string } {
  const shape = entryShapeSchema.safeParse(item);
  if (!shape.success || shape.data.server === undefined) {
    return { ok: false, reason: `not a registry entry (expected {server, _meta}, got ${describeValue(item)})` };
  }
  const doc = serverDocumentSchema.safeParse(shape.data.server);
  if (!doc.success) {
    const server = shape.data.server as { name?: unknown } | null;
    const name = typeof server === 'object' && server !== null && typeof server.name === 'string' ? `${server.name}: ` : '';
    return { ok: false, reason: `${name}not a server.json document (${describeIssues(doc.error)})` };
  }
  const meta = officialMetaSchema.safeParse(shape.data._meta?.[OFFICIAL_META_KEY]);
  return { ok: true, entry: { document: asServerDocument(doc.data), ...(meta.success ? { official: meta.data } : {}) } };
}

/** No cast: if the schema and catalog-source.ts's `ServerDocument` drift apart, this stops compiling. */
function asServerDocument(doc: z.infer<typeof serverDocumentSchema>): ServerDocument {
  return doc;
}

/** Reads every item of a list answer; the ones that fail are left out and each reason kept (`entry 3: …`). */
export function parseEntries(items: readonly unknown[]): { entries: ParsedEntry[]; skipped: string[] } {
  const entries: ParsedEntry[] = [];
  const skipped: string[] = [];
  items.forEach((item, index) => {
    const parsed = parseEntry(item);
    if (parsed.ok) entries.push(parsed.entry);
    else skipped.push(`entry ${index + 1}: ${parsed.reason}`);
  });
  return { entries, skipped };
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object with ${Object.keys(value).slice(0, 3).join(', ') || 'no keys'}`;
  return `a ${typeof value}`;
}
