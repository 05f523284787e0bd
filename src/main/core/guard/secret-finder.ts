/**
 * Finds secrets in what a tool call carries (docs/secret-checks.md): the values of the secret
 * store and the hub token — as written, base64-encoded (standard or URL-safe, at any alignment
 * inside a longer base64 text) or URL-encoded — and well-known credential shapes (cloud keys,
 * GitHub, Slack, OpenAI, Anthropic and npm tokens, private-key blocks, passwords in URLs and
 * connection strings) by secretlint's recommended rule set, a well-kept collection of patterns
 * with their false-positive filters, rather than regexes of our own.
 *
 * A finding names the rule and where (`arguments.token`), and for a stored secret its name: never
 * the value.
 */
import { jsonSpellings } from '../protocol/json-spellings.js';

/** What a finding was: a stored secret's value, or a credential shape (a secretlint rule). */
export interface SecretFinding {
  /** `stored-secret`, or the secretlint rule (`aws`, `github`, `privatekey`, …). */
  rule: string;
  /** The stored secret's name, or what the rule found ("GitHub token"). */
  label: string;
  /** Where, as a path into the checked value (`arguments.token`, `content[0].text`). */
  where: string;
  /** How the value appeared. */
  encoding: 'plain' | 'base64' | 'url';
}

export interface KnownSecret {
  /** The secret's name (`GITHUB_TOKEN`, `hub-token`). */
  label: string;
  value: string;
}

/** Shorter values would be found in ordinary words; a base64 form needs a few bytes to be distinctive. */
const MIN_KNOWN = 8;

interface Needle {
  /** The form as a parsed string holds it. */
  find: string;
  label: string;
  encoding: SecretFinding['encoding'];
}

/**
 * A cheap test every checked message passes first: the literal markers secretlint's recommended
 * rules look for (each rule's token prefix, key name or URL shape), case-insensitive — a superset
 * of what the rules report, so text without any of them is known clean without running them.
 * Kept beside the rule list of @secretlint/secretlint-rule-preset-recommend 13.0.7; the test
 * checks a sample of each family against it.
 */
const TOKEN_PREFIXES = [
  'npm_', 'xox[abporx]-', 'xapp-', 'sk-', 'gsk_', 'hf_', 'lin_api_', 'ntn_', 'SG\\.', 'shp(?:pa|ca|at|ss)_', '[rs]k_(?:live|test)_', 'gh[pousr]_', 'github_pat_',
  'glpat-', 'glsa_', 'hv[sbr]\\.', 'vc[pikar]_', 'dapi[0-9a-f]{32}', 'dckr_pat_', 'figd_', 'cf(?:k|ut|at)_', 'tskey-', 'ops_',
  // As the AWS rule itself: the whole key, so a long base64 text (an image) does not trip it by chance.
  '(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])',
];
const MARKERS = new RegExp(
  [
    // Token prefixes, where a token can start: not after a letter (the rules' own `(?<!\p{L})`,
    // loosened to ASCII letters, so it says "maybe" wherever a rule could match; a digit before a
    // token does not stop the rules, so it must not stop this),
    // or right after a JSON escape (`\nghp_…` is a newline, then a token): matched with the escape,
    // as a second lookbehind would double the scan's cost.
    `(?:\\\\[bfnrt]|(?<![A-Za-z]))(?:${TOKEN_PREFIXES.join('|')})`,
    // The URL's slashes as JSON may write them (`:\/\/`).
    '-----BEGIN', 'x-oauth-basic', '_authtoken', 'hooks\\.slack\\.com', ':\\\\?\\/\\\\?\\/[^/\\s:@]{1,256}:[^@/\\s]{1,256}@',
    'secret_?access_?key', 'account_?id', 'private_key',
  ].join('|'),
  'i',
);

interface LintMessage {
  ruleId: string;
  message: string;
  range: readonly [number, number];
}
type Lint = (text: string) => Promise<LintMessage[]>;

let lint: Promise<Lint> | undefined;

/** secretlint, loaded on the first check (a hub whose servers are all `off` never loads it). */
function loadLint(): Promise<Lint> {
  lint ??= (async () => {
    const [{ lintSource }, { creator }] = await Promise.all([import('@secretlint/core'), import('@secretlint/secretlint-rule-preset-recommend')]);
    const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] };
    return async (content: string) => {
      const result = await lintSource({ source: { content, filePath: '/tool-call.json', ext: '.json', contentType: 'text' }, options: { config, noPhysicFilePath: true } });
      return result.messages.map((m) => ({ ruleId: m.ruleId, message: m.message, range: m.range }));
    };
  })();
  return lint;
}

export class SecretFinder {
  private needles: Needle[] = [];
  /** What mayContain looks for besides the markers (none while no value is known): see `screenOf`. */
  private screen: RegExp | undefined;

  /** The values to look for (the store's and the hub token), replaced whole. */
  setKnown(secrets: readonly KnownSecret[]): void {
    const needles: Needle[] = [];
    for (const { label, value } of secrets) {
      if (value.length < MIN_KNOWN) continue;
      needles.push({ find: value, label, encoding: 'plain' });
      const url = encodeURIComponent(value);
      if (url !== value) needles.push({ find: url, label, encoding: 'url' });
      for (const b64 of base64Forms(value)) needles.push({ find: b64, label, encoding: 'base64' });
    }
    // Longest first (as the Redactor's): a secret that contains another is masked whole.
    needles.sort((a, b) => b.find.length - a.find.length);
    this.needles = needles;
    // The same spellings the Redactor looks for (a base64 form's `/` may be `\/` too).
    this.screen = needles.length > 0 ? screenOf([...new Set(needles.flatMap((n) => jsonSpellings(n.find)))]) : undefined;
  }

  /**
   * False when `text` (a message's JSON, or a part of it) certainly holds no secret: no stored
   * value in any of its forms and JSON spellings, none of the rules' markers, also once its
   * `\uXXXX` escapes are read. Synchronous and cheap: the check every message pays; `find` runs only when this says maybe.
   */
  mayContain(text: string): boolean {
    if (this.screen?.test(text) === true || MARKERS.test(text)) return true;
    // A `\uXXXX` escape can spell any of them: look again with the escapes read. Only then, and
    // not "maybe" for every such text: encoders that escape all non-ASCII (Python's json.dumps)
    // would send every message with an accent through secretlint.
    if (!text.includes('\\u')) return false;
    const read = text.replace(UNICODE_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return this.screen?.test(read) === true || MARKERS.test(read);
  }

  /** Every secret in the strings of `value` (object keys are not checked: names, not values). */
  async find(value: unknown, where: string, limit = Infinity): Promise<SecretFinding[]> {
    return (await this.scan(value, where, limit)).findings;
  }

  /** The findings, and per string the shapes secretlint reported on it as it is (what `mask` cuts). */
  private async scan(value: unknown, where: string, limit: number): Promise<{ findings: SecretFinding[]; shapes: Map<string, LintMessage[]> }> {
    const out: SecretFinding[] = [];
    const shapes = new Map<string, LintMessage[]>();
    const strings: Array<{ path: string; text: string }> = [];
    // With a limit (under `warn`), only that many characters of the strings, in document order.
    let left = limit;
    walkStrings(value, where, (path, text) => {
      if (left <= 0) return;
      strings.push({ path, text: text.length > left ? text.slice(0, left) : text });
      left -= text.length;
    });
    for (const s of strings) for (const n of this.needles) if (s.text.includes(n.find)) out.push({ rule: 'stored-secret', label: n.label, where: s.path, encoding: n.encoding });
    // The shapes: one pass over the whole text; only when something is there is each string
    // checked on its own, to say where.
    const whole = strings.map((s) => s.text).join('\n');
    if (whole.length === 0) return { findings: out, shapes };
    const check = await loadLint();
    if ((await check(whole)).length === 0) return { findings: out, shapes };
    for (const s of strings) {
      const found = await check(s.text);
      if (found.length > 0) shapes.set(s.path, found);
      for (const m of found) out.push({ rule: shortRule(m.ruleId), label: shapeLabel(m.message), where: s.path, encoding: 'plain' });
      const decoded = decodeUrl(s.text);
      if (decoded !== undefined) for (const m of await check(decoded)) out.push({ rule: shortRule(m.ruleId), label: shapeLabel(m.message), where: s.path, encoding: 'url' });
    }
    return { findings: out, shapes };
  }

  /** `value` with every finding's text replaced by `[secret:<label>]` (a base64 or URL-encoded one: the whole string). */
  async mask(value: unknown, where: string): Promise<{ value: unknown; findings: SecretFinding[] }> {
    const { findings, shapes } = await this.scan(value, where, Infinity);
    if (findings.length === 0) return { value, findings };
    const byPath = new Map<string, SecretFinding[]>();
    for (const f of findings) byPath.set(f.where, [...(byPath.get(f.where) ?? []), f]);
    const check = await loadLint();
    const masked = await mapStrings(value, where, async (path, text) => {
      const here = byPath.get(path);
      if (!here) return text;
      if (here.some((f) => f.encoding !== 'plain')) return `[secret:${here[0]!.label}]`;
      let out = text;
      for (const n of this.needles) if (n.encoding === 'plain' && out.includes(n.find)) out = out.split(n.find).join(`[secret:${n.label}]`);
      // Shapes: cut their ranges, last first so earlier offsets hold. The scan's own results when
      // no stored value was cut (offsets unchanged), else the masked text is linted again.
      const ranges = (out === text ? (shapes.get(path) ?? []) : await check(out)).map((m) => ({ range: m.range, label: shortRule(m.ruleId) })).sort((a, b) => b.range[0] - a.range[0]);
      for (const r of ranges) out = `${out.slice(0, r.range[0])}[secret:${r.label}]${out.slice(r.range[1])}`;
      return out;
    });
    return { value: masked, findings };
  }
}

const UNICODE_ESCAPE = /\\u([0-9a-fA-F]{4})/g;

/**
 * One RegExp for every spelling of every stored value: the text is scanned once — an
 * `includes` per spelling scanned it ~10 times per stored value (with six stored values: 1.1 µs
 * against 0.09 µs for a small call, 230 against 21 µs for 64 KiB of text).
 */
function screenOf(spellings: readonly string[]): RegExp {
  return new RegExp(spellings.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));
}

/**
 * The base64 texts any occurrence of `value` inside a longer base64 text contains: for each of
 * the three byte alignments, the characters that depend on the value's bytes alone (standard and
 * URL-safe alphabets).
 */
export function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const n = bytes.length;
  const out = new Set<string>();
  for (let k = 0; k < 3; k++) {
    const text = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    // Character i covers bits 6i..6i+5: free of the k leading bytes from ceil(8k/6), and fully
    // inside the value's bytes up to floor((8(k+n)-6)/6).
    const form = text.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + n) - 6) / 6) + 1);
    if (form.length < 8) continue;
    out.add(form);
    out.add(form.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...out];
}

function decodeUrl(text: string): string | undefined {
  if (!/%[0-9A-Fa-f]{2}/.test(text)) return undefined;
  try {
    const decoded = decodeURIComponent(text);
    return decoded === text ? undefined : decoded;
  } catch {
    return undefined;
  }
}

function walkStrings(value: unknown, path: string, visit: (path: string, text: string) => void): void {
  if (typeof value === 'string') visit(path, value);
  else if (Array.isArray(value)) value.forEach((v, i) => walkStrings(v, `${path}[${i}]`, visit));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) walkStrings(v, path === '' ? k : `${path}.${k}`, visit);
}

async function mapStrings(value: unknown, path: string, map: (path: string, text: string) => Promise<string>): Promise<unknown> {
  if (typeof value === 'string') return map(path, value);
  if (Array.isArray(value)) return Promise.all(value.map((v, i) => mapStrings(v, `${path}[${i}]`, map)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await mapStrings(v, path === '' ? k : `${path}.${k}`, map);
    return out;
  }
  return value;
}

/** `@secretlint/secretlint-rule-github` → `github`. */
function shortRule(ruleId: string): string {
  return ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
}

/** secretlint's message without the value it quotes ("found GitHub Token(…): ghp_…" → "GitHub Token(…)"). */
function shapeLabel(message: string): string {
  return message.replace(/^found\s+/i, '').replace(/:.*$/s, '').trim() || 'credential';
}
