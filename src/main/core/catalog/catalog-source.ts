/**
 * The seam between the catalog's two halves: the registry copies (fetched, cached, searched —
 * `registry-*.ts`, `catalog-store.ts`) and what is done with an entry (the install form, the
 * entry written, updates — `install-*.ts`, `catalog-api.ts`). Types only.
 *
 * A document is a registry's `server.json` (schema 2025-12-11) as the registry sent it; these
 * types name the fields Patchbay reads. Unknown fields are kept (the detail pane shows the whole
 * document), and every field a registry may omit is optional here.
 */
import type { CatalogRegistry, CatalogVersion } from '../../../shared/api/catalog-contract.js';

export interface DocInput {
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  format?: 'string' | 'number' | 'boolean' | 'filepath';
  /** Fixed value (not asked); `{name}` placeholders are filled from `variables`. */
  value?: string;
  default?: string;
  placeholder?: string;
  choices?: string[];
  variables?: Record<string, DocInput>;
}

export interface DocKeyValue extends DocInput {
  name: string;
}

export interface DocArgument extends DocInput {
  type: 'positional' | 'named';
  /** A named argument's flag (`--port`). */
  name?: string;
  /** A positional argument's label (not on the command line). */
  valueHint?: string;
  isRepeated?: boolean;
}

export interface DocTransport {
  type: 'stdio' | 'streamable-http' | 'sse';
  url?: string;
  headers?: DocKeyValue[];
  /** 2025-12-11: a remote's URL template variables (`https://{tenant}.example.com/mcp`). */
  variables?: Record<string, DocInput>;
}

export interface DocPackage {
  registryType: string;
  registryBaseUrl?: string;
  identifier: string;
  version?: string;
  fileSha256?: string;
  runtimeHint?: string;
  transport: DocTransport;
  runtimeArguments?: DocArgument[];
  packageArguments?: DocArgument[];
  environmentVariables?: DocKeyValue[];
}

export interface ServerDocument {
  $schema?: string;
  name: string;
  title?: string;
  description: string;
  version: string;
  repository?: { url?: string; source?: string; id?: string; subfolder?: string };
  websiteUrl?: string;
  packages?: DocPackage[];
  remotes?: DocTransport[];
  [key: string]: unknown;
}

/** What the registry says of an entry besides the document (`_meta` `io.modelcontextprotocol.registry/official`). */
export interface OfficialMeta {
  status?: string;
  publishedAt?: string;
  updatedAt?: string;
  isLatest?: boolean;
}

export interface RegistryEntry {
  /** The registry's URL (a `CatalogRegistry.url`). */
  registry: string;
  document: ServerDocument;
  official?: OfficialMeta;
}

export interface CatalogSource {
  /** The configured registries and the state of each copy. */
  registries(): CatalogRegistry[];
  /** Refresh every copy (skipped when refreshed within the hour, unless forced); never throws: failures land in `error`. */
  refresh(options?: { force?: boolean }): Promise<CatalogRegistry[]>;
  /** Ranked search over the latest versions; an empty query lists the most recently updated first. */
  search(query: string, options?: { limit?: number; registry?: string }): { hits: RegistryEntry[]; total: number };
  /** The latest version of a name (from the first registry that has it, or the one given). */
  latest(name: string, registry?: string): RegistryEntry | undefined;
  /** Every version of a name (`GET /v0.1/servers/{name}/versions`); offline, the cached latest alone. Throws a worded Error. */
  versions(name: string, registry?: string): Promise<CatalogVersion[]>;
  /** One version's document (`GET /v0.1/servers/{name}/versions/{version}`), or the cached one when it is that version. Throws a worded Error. */
  version(name: string, version: string, registry?: string): Promise<RegistryEntry>;
  /** Called after each refresh (successful or not). Returns an unsubscribe function. */
  onChange(listener: (registries: CatalogRegistry[]) => void): () => void;
  close(): Promise<void>;
}
