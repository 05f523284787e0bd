/**
 * The release feed the update check reads, and what counts as newer. The feed is GitHub's releases
 * API of the project (or any URL answering the same JSON: `PATCHBAY_UPDATE_FEED`); the app only
 * tells the person and links the release page — it never downloads or installs anything.
 */

/** GitHub's "latest release" endpoint of the project (no drafts, no pre-releases). */
export const DEFAULT_UPDATE_FEED = 'https://api.github.com/repos/mcp-patchbay/patchbay/releases/latest';
/** Set to a URL to read another feed, or to `off` to never check. */
export const UPDATE_FEED_ENV = 'PATCHBAY_UPDATE_FEED';

export interface Release {
  version: string;
  /** The release page (http or https), opened in the browser on request. */
  url: string;
}

export type FeedSetting = { enabled: true; url: string } | { enabled: false };

export function updateFeedSetting(env: Readonly<Record<string, string | undefined>>): FeedSetting {
  const value = env[UPDATE_FEED_ENV]?.trim();
  if (value === undefined || value === '') return { enabled: true, url: DEFAULT_UPDATE_FEED };
  if (value.toLowerCase() === 'off') return { enabled: false };
  return { enabled: true, url: value };
}

/**
 * Reads a GitHub release (`/releases/latest`) or a list of them (`/releases`, newest first: the
 * first that is neither a draft nor a pre-release). Undefined when the feed holds no usable release.
 */
export function latestRelease(feed: unknown): Release | undefined {
  const candidates = Array.isArray(feed) ? feed : [feed];
  for (const entry of candidates) {
    if (typeof entry !== 'object' || entry === null) continue;
    const r = entry as { tag_name?: unknown; html_url?: unknown; draft?: unknown; prerelease?: unknown };
    if (r.draft === true || r.prerelease === true) continue;
    if (typeof r.tag_name !== 'string' || typeof r.html_url !== 'string') continue;
    const version = r.tag_name.replace(/^v/i, '');
    if (parseVersion(version) === undefined || !isWebUrl(r.html_url)) continue;
    return { version, url: r.html_url };
  }
  return undefined;
}

/** True when `candidate` is a later version than `current` (semver order; a pre-release sorts before its release). */
export function isNewer(candidate: string, current: string): boolean {
  const a = parseVersion(candidate);
  const b = parseVersion(current);
  if (!a || !b) return false;
  for (let i = 0; i < 3; i++) if (a.core[i] !== b.core[i]) return a.core[i]! > b.core[i]!;
  if (a.pre === b.pre) return false;
  if (a.pre === undefined) return true;
  if (b.pre === undefined) return false;
  return a.pre.localeCompare(b.pre, 'en', { numeric: true }) > 0;
}

function parseVersion(text: string): { core: [number, number, number]; pre?: string } | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text);
  if (!m) return undefined;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], ...(m[4] !== undefined ? { pre: m[4] } : {}) };
}

function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
