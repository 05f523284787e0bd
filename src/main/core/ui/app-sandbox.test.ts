import { describe, expect, it } from 'vitest';
import { appCspDomains, appSandboxCsp, appSandboxCspFromQuery, validOrigins } from './app-sandbox.js';

const directives = (csp: string): Record<string, string> => Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1).join(' ')]));

describe('the MCP Apps sandbox page CSP', () => {
  it('allows no network and no framing by default, and never the hub itself', () => {
    const d = directives(appSandboxCspFromQuery(null));
    expect(d['connect-src']).toBe("'none'");
    expect(d['frame-src']).toBe("'none'");
    expect(d['default-src']).toBe("'none'");
    expect(d['form-action']).toBe("'none'");
    expect(d['frame-ancestors']).toBe("'self'");
    expect(d['img-src']).toBe('data: blob:');
    // 'self' would be the hub's origin: /api, /mcp.
    for (const [name, value] of Object.entries(d)) if (name !== 'frame-ancestors') expect(value).not.toContain("'self'");
  });

  it('puts the declared domains where SEP-1865 says', () => {
    const d = directives(
      appSandboxCsp(appCspDomains({ connectDomains: ['https://api.example.com', 'wss://live.example.com:8443'], resourceDomains: ['https://*.cdn.example.org/'], frameDomains: ['https://www.youtube.com'] })),
    );
    expect(d['connect-src']).toBe('https://api.example.com wss://live.example.com:8443');
    expect(d['script-src']).toContain('https://*.cdn.example.org');
    expect(d['img-src']).toBe('data: blob: https://*.cdn.example.org');
    expect(d['frame-src']).toBe('https://www.youtube.com');
    expect(d['base-uri']).toBe("'none'");
  });

  it('drops every hostile value: no directive, keyword, path or scheme can be injected', () => {
    const hostile = [
      "https://a.com; script-src 'unsafe-eval'",
      'https://a.com script-src *',
      "'self'",
      "'unsafe-inline'",
      '*',
      'https://*',
      'http://plain.example.com',
      'javascript:alert(1)',
      'data:',
      'https://a.com/path',
      'https://a.com\r\nX-Evil: 1',
      'https://a.com,b.com',
      'https://-bad.com',
      'https://a.com:99999',
      'https://*.*.com',
      42,
      null,
      { toString: () => 'https://a.com' },
    ];
    expect(validOrigins(hostile)).toEqual([]);
    const csp = appSandboxCspFromQuery(JSON.stringify({ connectDomains: hostile, resourceDomains: hostile, frameDomains: hostile, baseUriDomains: hostile }));
    expect(csp).toBe(appSandboxCspFromQuery(null));
    expect(csp.split('; ')).toHaveLength(13);
    // wss:// is a connection's scheme, not a script's.
    expect(validOrigins(['wss://ws.example.com'])).toEqual([]);
    expect(validOrigins(['wss://ws.example.com'], ['https', 'wss'])).toEqual(['wss://ws.example.com']);
  });

  it('treats unreadable or oversized declarations as none', () => {
    const none = appSandboxCspFromQuery(null);
    expect(appSandboxCspFromQuery('{not json')).toBe(none);
    expect(appSandboxCspFromQuery('"https://a.com"')).toBe(none);
    expect(appSandboxCspFromQuery(JSON.stringify({ connectDomains: 'https://a.com' }))).toBe(none);
    expect(appSandboxCspFromQuery(JSON.stringify({ connectDomains: ['https://a.com'], pad: 'x'.repeat(20_000) }))).toBe(none);
  });

  it('keeps at most 32 origins per list, each once', () => {
    const many = Array.from({ length: 50 }, (_, i) => `https://h${i}.example.com`);
    expect(validOrigins([...many.slice(0, 2), ...many])).toHaveLength(32);
    expect(validOrigins(['https://A.example.com', 'https://a.example.com/'])).toEqual(['https://a.example.com']);
  });
});
