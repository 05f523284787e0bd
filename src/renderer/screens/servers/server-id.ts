/**
 * Renderer-side copies of two tiny helpers of src/shared/config-schema.ts, so the bundle does not
 * pull zod in for them (that module builds zod schemas at load). A test pins them to the originals.
 */
import type { ServerConfig, StdioServerConfig } from '../../../shared/config-schema.js';

export const SERVER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function isStdioServer(server: ServerConfig): server is StdioServerConfig {
  return 'command' in server && typeof server.command === 'string';
}
