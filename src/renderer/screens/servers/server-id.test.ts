// The renderer's zod-free copies must match the shared originals exactly.
import { describe, expect, it } from 'vitest';
import * as shared from '../../../shared/config-schema.js';
import { isStdioServer, SERVER_ID_PATTERN } from './server-id.js';

describe('server-id copies', () => {
  it('match src/shared/config-schema.ts', () => {
    expect(SERVER_ID_PATTERN.source).toBe(shared.SERVER_ID_PATTERN.source);
    expect(SERVER_ID_PATTERN.flags).toBe(shared.SERVER_ID_PATTERN.flags);
    for (const entry of [{ command: 'x' }, { url: 'https://e.x/mcp' }]) expect(isStdioServer(entry)).toBe(shared.isStdioServer(entry));
  });
});
