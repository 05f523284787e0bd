/**
 * The engine's side of sandboxing: a stdio server whose entry has `sandbox` is started inside
 * bubblewrap (Linux) with the policy its setting comes to. When no sandbox can be had here the
 * server does not start — it fails with why (sandbox-support.ts) — never unsandboxed.
 */
import { mkdir, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StdioServerConfig } from '../../../shared/config-schema.js';
import { resolveCommand } from '../upstream/command-resolve.js';
import type { StdioSpawnSpec } from '../upstream/stdio-upstream.js';
import { bwrapCommand } from './bwrap.js';
import { resolvePolicy, type SandboxPolicy } from './sandbox-policy.js';
import { sandboxSupport } from './sandbox-support.js';

export type SandboxWrap = (server: StdioServerConfig, serverId: string, spec: StdioSpawnSpec) => Promise<StdioSpawnSpec>;

/** Where a sandboxed server without a configured `cwd` works (also its HOME): `<data dir>/sandbox/<id>`. */
export function sandboxHome(dataDir: string, serverId: string): string {
  return path.join(dataDir, 'sandbox', serverId);
}

export async function policyFor(server: StdioServerConfig, serverId: string, spec: StdioSpawnSpec, dataDir: string): Promise<SandboxPolicy> {
  // Found as the doctor finds it, then through its symlinks: its install prefix is what is bound.
  const found = await resolveCommand(spec.command, spec.env.PATH, process.platform);
  const commandPath = found === undefined ? undefined : await realpath(found).catch(() => found);
  return resolvePolicy(server.sandbox ?? true, { command: spec.command, commandPath, args: spec.args, cwd: spec.cwd, ownDir: sandboxHome(dataDir, serverId), home: os.homedir() });
}

export function sandboxWrapper(dataDir: string): SandboxWrap {
  const data = path.resolve(dataDir);
  return async (server, serverId, spec) => {
    const support = await sandboxSupport();
    if (!support.available) throw new Error(`server '${serverId}' is set to run in a sandbox, and none is available here: ${support.detail}`);
    await mkdir(sandboxHome(dataDir, serverId), { recursive: true, mode: 0o700 });
    const policy = await policyFor(server, serverId, spec, dataDir);
    // The data dir holds every server's keys and the hub token: no sandbox may see it, except
    // the server's own directory inside it.
    const own = sandboxHome(data, serverId);
    // A bound path exposes the data dir when it is the dir, holds it, or lies inside it (other than the server's own).
    const exposing = [...policy.read, ...policy.write].find((p) => p !== own && !within(p, own) && (within(data, p) || within(p, data)));
    if (exposing !== undefined) throw new Error(`server '${serverId}': its sandbox would expose Patchbay's data dir (${data}) through ${exposing}; give it a cwd and paths outside it`);
    const wrapped = bwrapCommand(policy, spec.command, spec.args);
    return { ...spec, command: wrapped.command, args: wrapped.args, cwd: policy.cwd };
  };
}

/** `inner` is `outer` or lies inside it. */
function within(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
