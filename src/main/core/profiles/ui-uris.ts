/**
 * MCP Apps' `ui://` resources in a profile (io.modelcontextprotocol/ui). A URI stays as its server
 * wrote it — byte for byte — unless two members claim the same one (two apps both serving
 * `ui://app/index.html`, or two copies of one App server): then each claimant's copy is made
 * unique as `ui://<server id>/<rest>`, in the tools' `_meta.ui.resourceUri` and in the
 * resources list alike, and a read of it goes to that member under its own URI. Every claimant
 * is renamed, not only the later one, so no URI depends on member order (as for tool names).
 *
 * The extension's spec asks only that the URI a tool names be readable as a resource of the same
 * connection and keep the `ui://` scheme; the rename keeps both, and is reversed by table (the
 * merged resource entry keeps the member's own URI), never by parsing.
 */
import type { ToolDefinition } from './tool-digest.js';

const UI = 'ui://';

/** server → the member's own URI → the URI the profile exposes. */
export type UiRenames = ReadonlyMap<string, ReadonlyMap<string, string>>;

interface Claimant {
  server: string;
  tools?: readonly ToolDefinition[] | undefined;
  resources?: ReadonlyArray<Record<string, unknown>> | undefined;
}

/** The `ui://` resource a tool's UI is served from (`_meta.ui.resourceUri`, or the older flat `_meta["ui/resourceUri"]`). */
export function toolUiUri(tool: ToolDefinition): string | undefined {
  const meta = tool._meta as { ui?: { resourceUri?: unknown }; 'ui/resourceUri'?: unknown } | undefined;
  const uri = meta?.ui?.resourceUri ?? meta?.['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith(UI) ? uri : undefined;
}

export function hasUiUris(items: readonly unknown[] | undefined, kind: 'tools' | 'resources'): boolean {
  if (!items) return false;
  if (kind === 'tools') return items.some((t) => toolUiUri(t as ToolDefinition) !== undefined);
  return items.some((r) => String((r as { uri?: unknown }).uri ?? '').startsWith(UI));
}

/** The `ui://` URIs more than one member claims (names in its tools or lists as a resource), renamed per member. */
export function uiRenames(members: readonly Claimant[]): UiRenames {
  const claims = new Map<string, Set<string>>();
  const claim = (uri: string, server: string): void => {
    let servers = claims.get(uri);
    if (!servers) claims.set(uri, (servers = new Set()));
    servers.add(server);
  };
  for (const m of members) {
    for (const tool of m.tools ?? []) {
      const uri = toolUiUri(tool);
      if (uri) claim(uri, m.server);
    }
    for (const r of m.resources ?? []) if (typeof r.uri === 'string' && r.uri.startsWith(UI)) claim(r.uri, m.server);
  }
  const out = new Map<string, Map<string, string>>();
  for (const [uri, servers] of claims) {
    if (servers.size < 2) continue;
    for (const server of servers) {
      let own = out.get(server);
      if (!own) out.set(server, (own = new Map()));
      own.set(uri, `${UI}${server}/${uri.slice(UI.length)}`);
    }
  }
  return out;
}

/** The tool as the profile lists it: its UI's URI replaced by the unique one. */
export function withUiUri(tool: Record<string, unknown>, unique: string): Record<string, unknown> {
  const meta = { ...(tool._meta as Record<string, unknown>) };
  if (typeof meta.ui === 'object' && meta.ui !== null && 'resourceUri' in meta.ui) meta.ui = { ...(meta.ui as Record<string, unknown>), resourceUri: unique };
  if (typeof meta['ui/resourceUri'] === 'string') meta['ui/resourceUri'] = unique;
  return { ...tool, _meta: meta };
}
