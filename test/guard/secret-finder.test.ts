/**
 * The secret finder on its own (docs/secret-checks.md), for what the end-to-end tests
 * (secret-checks.test.ts) cannot pin down:
 * - the cheap pre-check every message passes sees a stored value or a credential's marker however
 *   JSON spells it (`\/`, `\uXXXX`, a token right after `\n`), and an escape alone is no reason to look further;
 * - a stored secret that contains another is masked whole;
 * - `mask` lints each string once (it reuses what `find` got from secretlint).
 */
import type * as SecretlintCore from '@secretlint/core';
import { describe, expect, it, vi } from 'vitest';
import { SecretFinder } from '../../src/main/core/guard/secret-finder.js';

/** How often secretlint ran: its `lintSource`, counted and passed through. */
const lint = vi.hoisted(() => ({ calls: 0 }));
vi.mock('@secretlint/core', async (importOriginal) => {
  const real = await importOriginal<typeof SecretlintCore>();
  return {
    ...real,
    lintSource: (...args: Parameters<typeof real.lintSource>) => {
      lint.calls++;
      return real.lintSource(...args);
    },
  };
});

const GITHUB_TOKEN = `ghp_${'A1b2C3d4E5f6G7h8I9j0'.repeat(2).slice(0, 36)}`;
/** A message's raw JSON as an encoder that escapes `/` (PHP's json_encode) writes it. */
const slashEscaped = (value: unknown): string => JSON.stringify(value).replace(/\//g, '\\/');

describe('the secret finder', () => {
  it('the pre-check sees a stored value or a marker however JSON spells it', async () => {
    const finder = new SecretFinder();
    // 'q/?>' encodes to base64 with a `/` in every alignment's form.
    const REGEXPY = 'a+b*(c)[d]?{e}|f^$.\\g';
    finder.setKnown([{ label: 'SLASHED', value: 'abc/def/ghijkl' }, { label: 'PLAIN', value: 'supersecret1' }, { label: 'B64', value: 'q/?>q/?>q/?>' }, { label: 'REGEXPY', value: REGEXPY }]);
    const cases = [
      slashEscaped({ text: 'abc/def/ghijkl' }),
      '{"text":"\\u0073upersecret1"}',
      slashEscaped({ blob: Buffer.from('x q/?>q/?>q/?> y').toString('base64') }),
      `{"text":"\\u0067hp_${GITHUB_TOKEN.slice(4)}"}`,
      JSON.stringify({ text: `line one\n${GITHUB_TOKEN}` }),
      JSON.stringify({ text: `tab\t${GITHUB_TOKEN}` }),
      // Right after a digit: the rules' own boundary is "not after a letter".
      JSON.stringify({ text: `ref 1${GITHUB_TOKEN}` }),
      slashEscaped({ url: 'postgres://admin:hunter2pass@db.internal/app' }),
      // A value with a regular expression's special characters is looked for as it is.
      JSON.stringify({ text: `x${REGEXPY}y` }),
    ];
    for (const raw of cases) {
      expect(finder.mayContain(raw), raw).toBe(true);
      // …and the full check, on the parsed strings, finds what is there.
      expect((await finder.find(JSON.parse(raw), 'arguments')).length, raw).toBeGreaterThan(0);
    }
    // Ordinary JSON with escapes that spell nothing of the kind still reads clean — `\uXXXX` ones
    // too (an encoder that escapes all non-ASCII, as Python's json.dumps does by default), with
    // stored values and without.
    expect(finder.mayContain(slashEscaped({ path: '/home/user/notes.md', text: 'first line\nsecond line\tend' }))).toBe(false);
    const accents = '{"text":"caf\\u00e9 cr\\u00e8me \\ud83d\\ude00"}';
    expect(JSON.parse(accents)).toEqual({ text: 'café crème 😀' });
    expect(finder.mayContain(accents)).toBe(false);
    expect(new SecretFinder().mayContain(accents)).toBe(false);
  });

  it('masks a stored secret that contains another whole, whatever order they were stored in', async () => {
    const finder = new SecretFinder();
    finder.setKnown([{ label: 'SHORT', value: 'beta-gamma-42' }, { label: 'LONG', value: 'alpha-beta-gamma-42-omega' }]);
    const masked = await finder.mask({ text: 'a alpha-beta-gamma-42-omega b beta-gamma-42 c' }, 'arguments');
    expect(masked.value).toEqual({ text: 'a [secret:LONG] b [secret:SHORT] c' });
  });

  it('mask lints each string once: it reuses what the finding got from secretlint', async () => {
    const finder = new SecretFinder();
    finder.setKnown([]);
    await finder.find({ warm: 'up' }, 'arguments');
    lint.calls = 0;
    const masked = await finder.mask({ text: `gh ${GITHUB_TOKEN}` }, 'arguments');
    expect(masked.value).toEqual({ text: 'gh [secret:github]' });
    // One pass over the whole text, one over the string that holds the shape: never a third.
    expect(lint.calls).toBe(2);
  });
});
