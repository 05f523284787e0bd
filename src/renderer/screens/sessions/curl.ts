/**
 * A captured client request as a shell snippet that works as pasted (sh, bash, zsh), against the
 * hub, in a session of its own:
 *
 * - the hub token is read from its file by the command itself (`$(cat '<token file>')` in each
 *   header), so it never appears in the text a person copies, pastes or shares;
 * - a 2025-era request (sessions) first opens its own session — initialize, the session id taken
 *   from the answer's `Mcp-Session-Id`, `notifications/initialized` — then sends the request in it
 *   and ends the session (DELETE). Reusing the captured session's id would add a call to the
 *   original session (and fail once it has ended);
 * - a 2026-07-28 request is sessionless: one POST with the `Mcp-*` headers the client sent.
 *
 * The whole snippet runs in a subshell: its helper function and variables do not stay behind in
 * the person's shell.
 */

export function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export interface CurlInput {
  hubUrl: string;
  /** The server id, or `@profile`. */
  server: string;
  request: unknown;
  /** Where the hub token is; undefined when the hub runs without auth. */
  tokenFile?: string | undefined;
  /** The client's era: `modern` requests are sent alone, without a session. */
  era?: 'legacy' | 'modern' | undefined;
  /** The session's protocol revision (2025 era), for initialize and the MCP-Protocol-Version header. */
  protocolVersion?: string | undefined;
  /** A modern request's `Mcp-*` headers as captured (redacted). */
  headers?: Record<string, string> | undefined;
}

/** The revision a 2025-era session initializes with when the captured session did not say. */
const DEFAULT_LEGACY_VERSION = '2025-11-25';

function serverUrl(hubUrl: string, server: string): string {
  // A profile's endpoint is `/mcp/@name`: the `@` stays as it is.
  return `${hubUrl.replace(/\/+$/, '')}/mcp/${encodeURIComponent(server).replace(/^%40/, '@')}`;
}

export function curlCommand(input: CurlInput): string {
  const url = serverUrl(input.hubUrl, input.server);
  const method = (input.request as { method?: unknown } | undefined)?.method;
  const what = typeof method === 'string' ? method : 'the request';
  const auth = input.tokenFile ? ` -H "Authorization: Bearer $(cat ${quote(input.tokenFile)})"` : '';
  const lines = [
    `# ${what} on ${input.server}, sent again through the Patchbay hub${input.era === 'modern' ? ' (2026-07-28: no session needed)' : ' in a session of its own'}.`,
    input.tokenFile ? '# The hub token is read from its file when this runs; it is not in this text.' : '# The hub runs without a token.',
  ];
  if (JSON.stringify(input.request ?? null).includes('[secret:')) lines.push('# Values shown as [secret:…] were masked when captured: put the real ones in before running.');
  lines.push('(');
  lines.push(`  mcp() { curl -sS -N -X POST ${quote(url)}${auth} -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' "$@"; echo; }`);
  const body = quote(JSON.stringify(input.request));
  if (input.era === 'modern') {
    const headers = Object.entries(input.headers ?? {})
      .filter(([name]) => /^mcp-/i.test(name))
      .map(([name, value]) => ` -H ${quote(`${name}: ${value}`)}`)
      .join('');
    lines.push(`  mcp${headers} --data-raw ${body}`);
  } else {
    const version = input.protocolVersion ?? DEFAULT_LEGACY_VERSION;
    const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'curl', version: '1.0.0' } } };
    // The session id comes back as a response header: print the headers, keep only that one.
    lines.push(`  sid=$(mcp -o /dev/null -D - --data-raw ${quote(JSON.stringify(initialize))} | awk 'tolower($1) == "mcp-session-id:" { sub(/\\r$/, "", $2); print $2 }')`);
    lines.push(`  in_session() { mcp -H "Mcp-Session-Id: $sid" -H ${quote(`MCP-Protocol-Version: ${version}`)} "$@"; }`);
    lines.push(`  in_session --data-raw '{"jsonrpc":"2.0","method":"notifications/initialized"}'`);
    lines.push(`  in_session --data-raw ${body}`);
    lines.push(`  curl -sS -o /dev/null -X DELETE ${quote(url)}${auth} -H "Mcp-Session-Id: $sid"`);
  }
  lines.push(')');
  return lines.join('\n');
}
