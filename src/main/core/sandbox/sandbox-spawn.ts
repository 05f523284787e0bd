/**
 * The engine's side of sandboxing: a stdio server whose entry has `sandbox` is started inside
 * bubblewrap (Linux) with the policy its setting comes to. When no sandbox can be had here the
 * server does not start — it fails with why (sandbox-support.ts) — never unsandboxed.
 */
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StdioServerConfig } from '../../../shared/config-schema.js';
import type { StdioSpawnSpec } from '../upstream/stdio-upstream.js';
import { bwrapCommand } from './bwrap.js';
import { resolvePolicy, type SandboxPolicy } from './sandbox-policy.js';
import { sandboxSupport } from './sandbox-support.js';

export type SandboxWrap = (server: StdioServerConfig, serverId: string, spec: StdioSpawnSpec) => Promise<StdioSpawnSpec>;

/** Where a sandboxed server without a configured `cwd` works (also its HOME): `<data dir>/sandbox/<id>`. */
export function sandboxHome(dataDir: string, serverId: string): string {
  return path.join(dataDir, 'sandbox', serverId);
}

export function policyFor(server: StdioServerConfig, serverId: string, spec: StdioSpawnSpec, dataDir: string): SandboxPolicy {
  return resolvePolicy(server.sandbox ?? true, { command: spec.command, args: spec.args, cwd: spec.cwd, ownDir: sandboxHome(dataDir, serverId), pathEnv: spec.env.PATH, home: os.homedir() });
}

export function sandboxWrapper(dataDir: string): SandboxWrap {
  const data = path.resolve(dataDir);
  return async (server, serverId, spec) => {
    const support = await sandboxSupport();
    if (!support.available) throw new Error(`server '${serverId}' is set to run in a sandbox, and none is available here: ${support.detail}`);
    await mkdir(sandboxHome(dataDir, serverId), { recursive: true, mode: 0o700 });
    const policy = policyFor(server, serverId, spec, dataDir);
    // The data dir holds every server's keys and the hub token: no sandbox may see it, except
    // the server's own directory inside it.
    const own = sandboxHome(data, serverId);
    const exposing = [...policy.read, ...policy.write].find((p) => p !== own && (data === p || data.startsWith(p.endsWith('/') ? p : `${p}/`) || (p.startsWith(`${data}/`) && !p.startsWith(`${own}/`))));
    if (exposing !== undefined) throw new Error(`server '${serverId}': its sandbox would expose Patchbay's data dir (${data}) through ${exposing}; give it a cwd and paths outside it`);
    const wrapped = bwrapCommand(policy, spec.command, spec.args);
    return { ...spec, command: wrapped.command, args: wrapped.args, cwd: policy.cwd };
  };
}
