/**
 * Shared setup of the profile tests: three real stdio servers whose tool names overlap (the
 * everything fixture, alpha and beta), a hub with them, and small readers for what the
 * aggregated endpoint answers.
 */
import path from 'node:path';
import { expect } from 'vitest';
import type { JsonRpcMessage } from '../helpers/json-rpc.js';
import { FIXTURES_DIR } from '../helpers/repo-paths.js';
import { everythingServer, type ServerEntry } from '../helpers/server-entries.js';
import type { TestClient } from '../helpers/test-client.js';
import { startHub, type HubOptions, type TestHub } from '../helpers/test-hub.js';

export const ALPHA_SERVER = path.join(FIXTURES_DIR, 'alpha-server.mjs');
export const BETA_SERVER = path.join(FIXTURES_DIR, 'beta-server.mjs');
export const LONG_NAME = 'summarize_the_quarterly_engineering_reports_for_the_whole_organisation';
export const SAFE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function alphaServer(extra: Partial<ServerEntry> = {}): ServerEntry {
  return { command: process.execPath, args: [ALPHA_SERVER], ...extra };
}

export function betaServer(extra: Partial<ServerEntry> = {}): ServerEntry {
  return { command: process.execPath, args: [BETA_SERVER], ...extra };
}

/** A hub with the three fixture servers and the given profiles. */
export function profileHub(profiles: Record<string, unknown> = {}, extra: Partial<HubOptions> = {}): Promise<TestHub> {
  return startHub({
    servers: { everything: everythingServer(), alpha: alphaServer(), beta: betaServer() },
    config: { profiles },
    ...extra,
  });
}

export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
}

export async function listTools(client: TestClient): Promise<ListedTool[]> {
  const { response } = await client.request('tools/list');
  expect(response.error).toBeUndefined();
  return (response.result as { tools: ListedTool[] }).tools;
}

export function resultOf<T = Record<string, unknown>>(m: JsonRpcMessage): T {
  if (m.error) throw new Error(`expected a result, got error ${m.error.code}: ${m.error.message}`);
  return m.result as T;
}
