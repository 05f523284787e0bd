/**
 * The unified diff shown before an export is written. It is for eyes, not for patching: the hub
 * token and anything that looks like a credential (in Patchbay's lines or in the context lines
 * around them, which may be the person's other servers) are masked.
 */
import { createTwoFilesPatch } from 'diff';

export const MASK = '••••••••';

const SECRET_KEY = String.raw`[\w.-]*(?:key|token|secret|passw|pwd|credential|cookie|authorization)[\w.-]*`;
// "NAME": "value" (JSON), NAME = "value" (TOML), NAME: "value" (YAML, quoted)
const QUOTED = new RegExp(String.raw`((["']?)${SECRET_KEY}\2\s*[:=]\s*)(["'])((?:(?!\3).)+)\3`, 'gi');
// NAME: value (YAML, plain)
const PLAIN = new RegExp(String.raw`^(\s*-?\s*${SECRET_KEY}:[ \t]+)(?!["'\s#[{])([^#\r\n]*?)([ \t]*(?:#.*)?)$`, 'i');

/** Masks credential-looking values in one line; `${secret:…}` and other references stay visible. */
export function maskLine(line: string): string {
  const masked = line.replace(QUOTED, (all, lead: string, _q: string, quote: string, value: string) => (isReference(value) ? all : `${lead}${quote}${maskValue(value)}${quote}`));
  return masked.replace(PLAIN, (all, lead: string, value: string, tail: string) => (isReference(value) ? all : `${lead}${maskValue(value)}${tail}`));
}

function maskValue(value: string): string {
  // Keep an auth scheme visible ("Bearer ••••") so the diff still says what kind of credential it is.
  const scheme = /^(Bearer|Basic|Token|Bot)\s+/i.exec(value)?.[0] ?? '';
  return scheme + MASK;
}

function isReference(value: string): boolean {
  return /^\$\{[^}]+\}$/.test(value.trim()) || /^\$[A-Z_][A-Z0-9_]*$/i.test(value.trim()) || /^\{env:[^}]+\}$/.test(value.trim());
}

export function unifiedDiff(file: string, before: string | undefined, after: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let patch = createTwoFilesPatch(before === undefined ? '/dev/null' : file, file, before ?? '', after, before === undefined ? '(new file)' : 'before', 'after', { context: 3 });
  for (const secret of secrets) if (secret) patch = patch.split(secret).join(MASK);
  // Client tokens (old ones on removed lines too), wherever a format put them.
  patch = patch.replace(/pbc_[A-Za-z0-9_-]{43}/g, MASK);
  return patch
    .split('\n')
    .map((line) => (/^[ +-]/.test(line) && !/^(---|\+\+\+) /.test(line) ? line[0] + maskLine(line.slice(1)) : line))
    .join('\n');
}
