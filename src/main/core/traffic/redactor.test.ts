import { describe, expect, it } from 'vitest';
import { configuredSecretValues, Redactor } from './redactor.js';

function redactor(values: Record<string, string>): Redactor {
  const r = new Redactor();
  r.setSource('store', Object.entries(values).map(([label, value]) => ({ label, value })));
  return r;
}

describe('Redactor', () => {
  it('masks values wherever they appear, longest first, and JSON-escaped', () => {
    const r = redactor({ A: 'secret-value', AB: 'secret-value-long', Q: 'q"uo/te\\d' });
    expect(r.redact('x secret-value-long y secret-value')).toBe('x [secret:AB] y [secret:A]');
    const json = JSON.stringify({ text: 'q"uo/te\\d' });
    expect(r.redactJson(json)).toEqual({ text: '{"text":"[secret:Q]"}', valid: true });
    expect(r.redactJson('{"text":"q\\"uo\\/te\\\\d"}').text).toBe('{"text":"[secret:Q]"}');
  });

  it('finds a secret spelled with \\u escapes', () => {
    const r = redactor({ K: 'sk-abcdef' });
    const out = r.redactJson('{"a":"\\u0073k-abcdef"}');
    expect(out).toEqual({ text: '{"a":"[secret:K]"}', valid: true });
  });

  it('reports JSON made invalid by masking a number, and ignores short values', () => {
    const r = redactor({ N: '12345', S: 'abc' });
    expect(r.redactJson('{"id":123456}')).toEqual({ text: '{"id":[secret:N]6}', valid: false });
    expect(r.redact('abc abc')).toBe('abc abc');
  });

  it('replaces credential headers whole and masks secrets in the others', () => {
    const r = redactor({ T: 'tok-123456' });
    r.setSecretNames(['X-Custom-Key']);
    expect(r.redactHeaders({ authorization: 'Bearer x', cookie: 'a=b', 'x-custom-key': 'v', 'x-api-key': 'k', accept: 'json', 'x-note': 'has tok-123456', n: 5 })).toEqual({
      authorization: '[redacted]',
      cookie: '[redacted]',
      'x-custom-key': '[redacted]',
      'x-api-key': '[redacted]',
      accept: 'json',
      'x-note': 'has [secret:T]',
      n: '5',
    });
  });

  it('takes what a config marks secret: resolved references and secret-named keys', () => {
    const r = new Redactor();
    const configured = { command: 'node', args: ['--key=${secret:K}'], env: { GITHUB_TOKEN: 'ghp_literal', PLAIN: 'visible', REF: '${secret:R}' }, oauth: { clientSecret: 'cs-123456' } };
    const resolved = { ...configured, args: ['--key=k-value'], env: { ...configured.env, REF: 'r-value' } };
    expect(configuredSecretValues('gh', configured, resolved, r).map((v) => [v.label, v.value])).toEqual([
      ['gh.args.0', '--key=k-value'],
      ['gh.env.GITHUB_TOKEN', 'ghp_literal'],
      ['gh.env.REF', 'r-value'],
      ['gh.oauth.clientSecret', 'cs-123456'],
    ]);
  });

  it("takes an entry's own settings for settings, not credentials, whatever their names (secretCheck: mask)", () => {
    const r = new Redactor();
    const entry = { command: 'node', secretCheck: 'mask', env: { API_TOKEN: 'tok-123456' } };
    expect(configuredSecretValues('s', entry, entry, r).map((v) => [v.label, v.value])).toEqual([['s.env.API_TOKEN', 'tok-123456']]);
  });
});
