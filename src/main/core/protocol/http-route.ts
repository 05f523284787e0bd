/**
 * A feature mounted on the hub's port under a path prefix (`/api`, `/ui`, `/oauth/callback`).
 * Host and Origin are checked before any route runs; `auth: 'token'` also requires the hub token
 * (or whatever the hub's `authorize` hook accepts, e.g. the UI's session cookie); `auth: 'mcp'`
 * (an MCP door) accepts a per-client token as well.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface HttpRoute {
  prefix: string;
  auth: 'token' | 'mcp' | 'none';
  handle(req: IncomingMessage, res: ServerResponse, path: string, cors: Record<string, string>): void | Promise<void>;
}
