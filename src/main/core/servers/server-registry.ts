/**
 * The configured servers at run time: one ServerRuntime per enabled server, kept in step with the
 * config. A server whose entry changed is replaced (its sessions end: clients re-initialize on
 * 404, and new sessions use the new entry); untouched servers keep their runtimes, children and
 * sessions. The hub looks servers up here per request.
 */
import { isStdioServer, type PatchbayConfig } from '../../../shared/config-schema.js';
import type { ServerSummary } from '../../../shared/api/hub-contract.js';
import type { Logger } from '../log/logger.js';
import { ServerRuntime, type ServerRuntimeDeps } from './server-runtime.js';

export class ServerRegistry {
  private runtimes = new Map<string, ServerRuntime>();

  constructor(
    config: PatchbayConfig,
    private readonly deps: ServerRuntimeDeps,
    private readonly logger: Logger,
  ) {
    this.runtimes = build(config, deps);
  }

  get(id: string): ServerRuntime | undefined {
    return this.runtimes.get(id);
  }

  /**
   * Follows a new config. `retire` is told of each server that changed or was removed, and must
   * end its sessions; its old runtime is closed after that. Returns those servers' ids (profiles
   * re-open their connections to them).
   */
  apply(next: PatchbayConfig, retire: (id: string) => Promise<void>): string[] {
    const updated = build(next, this.deps);
    const replaced: string[] = [];
    for (const [id, runtime] of this.runtimes) {
      const replacement = updated.get(id);
      if (replacement && JSON.stringify(replacement.config) === JSON.stringify(runtime.config)) {
        updated.set(id, runtime);
        continue;
      }
      replaced.push(id);
      this.logger.info(`server '${id}' ${replacement ? 'changed' : 'was removed'}: closing its sessions`);
      void retire(id).then(() => runtime.close());
    }
    this.runtimes = updated;
    return replaced;
  }

  /** Every configured server (enabled or not), as the API lists them. */
  summaries(config: PatchbayConfig, hubUrl: string, sessionCounts: Map<string, number>): ServerSummary[] {
    return Object.entries(config.mcpServers).map(([id, server]) => ({
      id,
      url: `${hubUrl}/mcp/${encodeURIComponent(id)}`,
      kind: isStdioServer(server) ? 'stdio' : 'remote',
      disabled: server.disabled === true,
      sessions: sessionCounts.get(id) ?? 0,
      children: this.runtimes.get(id)?.childCount ?? 0,
    }));
  }

  async close(): Promise<void> {
    await Promise.all([...this.runtimes.values()].map((r) => r.close()));
  }
}

function build(config: PatchbayConfig, deps: ServerRuntimeDeps): Map<string, ServerRuntime> {
  const out = new Map<string, ServerRuntime>();
  for (const [id, server] of Object.entries(config.mcpServers)) {
    if (server.disabled) continue;
    out.set(id, new ServerRuntime(id, server, deps));
  }
  return out;
}
