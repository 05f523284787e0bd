/**
 * Talking to one MCP registry (API v0.1, https://registry.modelcontextprotocol.io or a company's
 * own): `GET` with a timeout and a body cap, the status checked, the JSON parsed and its shape
 * checked. Every failure is an Error whose message names the registry and the URL path
 * (`registry "official": GET /v0.1/servers?limit=100: answered 500 (Internal server error)`),
 * worded to be shown as is.
 *
 * Lists are read page by page (`cursor`, `limit=100`) up to a page cap; `updated_since` makes a
 * refresh fetch only what changed; the first page is sent with `If-None-Match` when the last
 * answer to that same URL carried an ETag (304: nothing changed).
 */
import type { ParsedEntry } from './server-document.js';
import { describeIssues, parseEntries, parseEntry, serverListSchema } from './server-document.js';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;
const PAGE_LIMIT = 100;
/** 100 pages of 100: far above today's official registry; a registry that pages forever is cut there. */
const DEFAULT_MAX_PAGES = 100;

export interface RegistryClientOptions {
  /** The registry's base URL (`https://registry.modelcontextprotocol.io`, no `/v0.1`). */
  url: string;
  /** How messages name it ("official", "acme"). */
  label: string;
  /** Per request, headers to body's end. Default 10 s. */
  timeoutMs?: number;
  /** Per answer; reading stops there. Default 8 MiB. */
  maxBytes?: number;
  /** Pages read per list. Default 100. */
  maxPages?: number;
  /** Entries asked per page (`limit`). Default 100, the API's maximum. */
  pageSize?: number;
  fetch?: typeof globalThis.fetch;
}

export interface ListOptions {
  /** RFC 3339: only entries updated after it (deleted ones included, as the API does for `updated_since`). */
  updatedSince?: string;
  /** The ETag of the last answer to this same first-page URL. */
  etag?: string;
  etagPath?: string;
}

export type ListResult =
  | { notModified: true; firstPath: string; etag?: string }
  | {
      notModified: false;
      entries: ParsedEntry[];
      /** Reasons for items left out (not documents), `entry N of page M: …`. */
      skipped: string[];
      /** Items received, valid or not. */
      received: number;
      /** The first page's URL path and ETag, to send back next time. */
      firstPath: string;
      etag?: string;
      /** True when the page cap stopped the reading before the last page. */
      truncated: boolean;
    };

export interface RegistryClient {
  readonly url: string;
  readonly label: string;
  list(options?: ListOptions): Promise<ListResult>;
  versions(name: string): Promise<ParsedEntry[]>;
  version(name: string, version: string): Promise<ParsedEntry>;
}

/** A registry failure; `status` is the HTTP status when the registry answered with one. */
export class RegistryError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'RegistryError';
  }
}

/** `https://host/` and `https://host` are the same registry. */
export function normalizeRegistryUrl(url: string): string {
  return url.replace(/\/+$/, '');
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  if (cause?.code && cause.message) return cause.message.includes(cause.code) ? cause.message : `${cause.code}: ${cause.message}`;
  return err instanceof Error ? err.message : String(err);
}

export function createRegistryClient(options: RegistryClientOptions): RegistryClient {
  const base = normalizeRegistryUrl(options.url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const pageSize = options.pageSize ?? PAGE_LIMIT;
  const doFetch = options.fetch ?? globalThis.fetch;
  const label = options.label;

  const fail = (pathAndQuery: string, what: string, status?: number): RegistryError =>
    new RegistryError(`registry "${label}": GET ${pathAndQuery}: ${what}`, status);

  /** One GET: the parsed JSON, or `undefined` for a 304. */
  async function getJson(pathAndQuery: string, etag?: string): Promise<{ body: unknown; etag?: string } | undefined> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      let res: Response;
      try {
        res = await doFetch(`${base}${pathAndQuery}`, {
          headers: { accept: 'application/json', ...(etag ? { 'if-none-match': etag } : {}) },
          signal: controller.signal,
        });
      } catch (err) {
        if (controller.signal.aborted) throw fail(pathAndQuery, `no answer within ${timeoutMs / 1000} s`);
        throw fail(pathAndQuery, `could not reach ${base} (${causeOf(err)})`);
      }
      if (res.status === 304) {
        await res.body?.cancel();
        return undefined;
      }
      const text = await readCapped(res, pathAndQuery, controller);
      if (!res.ok) {
        const said = errorText(text);
        throw fail(pathAndQuery, `answered ${res.status}${said ? ` (${said})` : res.statusText ? ` (${res.statusText})` : ''}`, res.status);
      }
      try {
        return { body: JSON.parse(text) as unknown, ...(res.headers.get('etag') ? { etag: res.headers.get('etag') ?? '' } : {}) };
      } catch (err) {
        throw fail(pathAndQuery, `the answer is not JSON (${err instanceof Error ? err.message : String(err)})`);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Reads the body up to the cap; past it, the download is cut and the request fails. */
  async function readCapped(res: Response, pathAndQuery: string, controller: AbortController): Promise<string> {
    const tooLarge = () => fail(pathAndQuery, `the registry's answer is larger than ${formatBytes(maxBytes)}`);
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      controller.abort();
      throw tooLarge();
    }
    if (!res.body) return '';
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          controller.abort();
          throw tooLarge();
        }
        chunks.push(value);
      }
    } catch (err) {
      if (err instanceof RegistryError) throw err;
      if (controller.signal.aborted) throw fail(pathAndQuery, `no answer within ${timeoutMs / 1000} s`);
      throw fail(pathAndQuery, `the answer broke off (${causeOf(err)})`);
    } finally {
      reader.releaseLock();
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  function checkList(body: unknown, pathAndQuery: string) {
    const list = serverListSchema.safeParse(body);
    if (!list.success) throw fail(pathAndQuery, `the answer is not a server list (${describeIssues(list.error)})`);
    return list.data;
  }

  const encodedName = (name: string) => encodeURIComponent(name);

  return {
    url: base,
    label,

    async list(listOptions = {}) {
      const query = new URLSearchParams({ version: 'latest', limit: String(pageSize) });
      if (listOptions.updatedSince) query.set('updated_since', listOptions.updatedSince);
      const firstPath = `/v0.1/servers?${query.toString()}`;
      const entries: ParsedEntry[] = [];
      const skipped: string[] = [];
      let received = 0;
      let firstEtag: string | undefined;
      let cursor: string | undefined;
      for (let page = 1; page <= maxPages; page++) {
        if (cursor) query.set('cursor', cursor);
        const pathAndQuery = `/v0.1/servers?${query.toString()}`;
        const sendEtag = page === 1 && listOptions.etag && listOptions.etagPath === firstPath ? listOptions.etag : undefined;
        const answer = await getJson(pathAndQuery, sendEtag);
        if (answer === undefined) {
          if (page === 1) return { notModified: true, firstPath, ...(sendEtag ? { etag: sendEtag } : {}) };
          throw fail(pathAndQuery, 'answered 304 to a request that did not ask for it');
        }
        if (page === 1) firstEtag = answer.etag;
        const list = checkList(answer.body, pathAndQuery);
        received += list.servers.length;
        const parsed = parseEntries(list.servers);
        entries.push(...parsed.entries);
        skipped.push(...parsed.skipped.map((reason) => (page > 1 ? reason.replace(/^entry (\d+)/, `entry $1 of page ${page}`) : reason)));
        const next = list.metadata?.nextCursor;
        if (!next || list.servers.length === 0) {
          return { notModified: false, entries, skipped, received, firstPath, ...(firstEtag ? { etag: firstEtag } : {}), truncated: false };
        }
        if (next === cursor) throw fail(pathAndQuery, `the registry sent the same cursor twice (${next})`);
        cursor = next;
      }
      return { notModified: false, entries, skipped, received, firstPath, ...(firstEtag ? { etag: firstEtag } : {}), truncated: true };
    },

    async versions(name) {
      const pathAndQuery = `/v0.1/servers/${encodedName(name)}/versions`;
      const answer = await getNotFoundWorded(pathAndQuery, name);
      const list = checkList(answer, pathAndQuery);
      const parsed = parseEntries(list.servers);
      if (parsed.entries.length === 0 && parsed.skipped.length > 0) {
        throw fail(pathAndQuery, `no version is a valid server.json document (${parsed.skipped[0] ?? ''})`);
      }
      return parsed.entries;
    },

    async version(name, version) {
      const pathAndQuery = `/v0.1/servers/${encodedName(name)}/versions/${encodeURIComponent(version)}`;
      const answer = await getNotFoundWorded(pathAndQuery, `${name} ${version}`);
      const parsed = parseEntry(answer);
      if (!parsed.ok) throw fail(pathAndQuery, parsed.reason);
      return parsed.entry;
    },
  };

  async function getNotFoundWorded(pathAndQuery: string, what: string): Promise<unknown> {
    try {
      const answer = await getJson(pathAndQuery);
      if (answer === undefined) throw fail(pathAndQuery, 'answered 304 to a request that did not ask for it');
      return answer.body;
    } catch (err) {
      if (err instanceof RegistryError && err.status === 404) throw fail(pathAndQuery, `the registry has no ${what}`, 404);
      throw err;
    }
  }
}

/** The registry's own words for a failure (`{"error": "…"}` or `{"detail": "…"}`), short. */
function errorText(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown; detail?: unknown; title?: unknown };
    const said = [body.error, body.detail, body.title].find((v): v is string => typeof v === 'string' && v !== '');
    return said === undefined ? undefined : said.slice(0, 200);
  } catch {
    return undefined;
  }
}
