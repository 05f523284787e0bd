import { describe, expect, it } from 'vitest';
import { deepFreeze, serializeConfig } from './config-format.js';

describe('serializeConfig', () => {
  const config = { mcpServers: { fs: { command: 'npx', env: { A: 'line\nbreak' } } } };

  it('uses 2 spaces and LF for a new file', () => {
    expect(serializeConfig(config)).toBe(JSON.stringify(config, null, 2) + '\n');
  });

  it("keeps the previous file's tabs and CRLF line endings", () => {
    const text = serializeConfig(config, '{\r\n\t"mcpServers": {}\r\n}\r\n');
    expect(text).toBe(JSON.stringify(config, null, '\t').replace(/\n/g, '\r\n') + '\r\n');
    expect(JSON.parse(text)).toEqual(config);
  });
});

describe('deepFreeze', () => {
  it('freezes nested objects and arrays', () => {
    const value = deepFreeze({ a: { b: [1, { c: 2 }] } });
    expect(Object.isFrozen(value.a.b)).toBe(true);
    expect(Object.isFrozen(value.a.b[1])).toBe(true);
  });
});
