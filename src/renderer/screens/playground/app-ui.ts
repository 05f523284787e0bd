/**
 * What the playground reads of MCP Apps (SEP-1865) in tool and resource metadata: the `ui://`
 * resource a tool's result is shown with, and which tools an app may call.
 */
import type { ToolDef } from '../../stores/playground-store.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The `ui://` resource of a tool: `_meta.ui.resourceUri`, or the legacy flat `_meta["ui/resourceUri"]`. */
export function appResourceUri(tool: Pick<ToolDef, '_meta'> | undefined): string | undefined {
  const meta = tool?._meta;
  if (!isObject(meta)) return undefined;
  const ui = meta.ui;
  const uri = isObject(ui) && typeof ui.resourceUri === 'string' ? ui.resourceUri : meta['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined;
}

/**
 * The tool of the playground's list an app's `tools/call` names, when the app may call it. On a
 * server's playground every tool of the server is the app's own. On a profile's (`@name`), only
 * the tools that share the app's `ui://` resource: those are its member's, while a name of
 * another member's tool (own or prefixed) is refused before anything is sent. The app uses the
 * names it knows (its server's own); a profile's list has them prefixed (`member__name`).
 */
export function appCallable(tools: ToolDef[], name: string, appUri: string, profile: boolean): ToolDef | undefined {
  const matches = tools.filter((t) => t.name === name || t.name.endsWith(`__${name}`));
  if (!profile) return matches.find((t) => t.name === name);
  return matches.find((t) => appResourceUri(t) === appUri);
}

/** One `ui://` resource's content as read: the HTML, and its `_meta.ui` (CSP, permissions, border). */
export interface AppResource {
  html: string;
  csp?: unknown;
  prefersBorder?: boolean;
}

/** The app's HTML from a `resources/read` result, or why there is none. */
export function appResourceOf(result: unknown, uri: string): { ok: true; value: AppResource } | { ok: false; message: string } {
  const contents = isObject(result) && Array.isArray(result.contents) ? (result.contents as unknown[]) : [];
  const item = contents.find((c): c is Record<string, unknown> => isObject(c) && c.uri === uri) ?? contents.find(isObject);
  if (!item) return { ok: false, message: `The server returned no content for ${uri}` };
  const mime = typeof item.mimeType === 'string' ? item.mimeType : '';
  if (!mime.startsWith('text/html')) return { ok: false, message: `${uri} is ${mime || 'of no MIME type'}, not an app's HTML (text/html;profile=mcp-app)` };
  let html: string | undefined;
  if (typeof item.text === 'string') html = item.text;
  else if (typeof item.blob === 'string') {
    try {
      html = new TextDecoder().decode(Uint8Array.from(atob(item.blob), (c) => c.charCodeAt(0)));
    } catch {
      return { ok: false, message: `${uri}: its content is not valid base64` };
    }
  }
  if (html === undefined) return { ok: false, message: `${uri} has neither text nor blob` };
  const ui = isObject(item._meta) && isObject(item._meta.ui) ? item._meta.ui : {};
  const value: AppResource = { html };
  if (ui.csp !== undefined) value.csp = ui.csp;
  if (typeof ui.prefersBorder === 'boolean') value.prefersBorder = ui.prefersBorder;
  return { ok: true, value };
}
