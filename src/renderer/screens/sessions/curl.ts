/**
 * A captured client request as a curl command against the hub. The hub token is never put in:
 * the command reads it from the token file into $PATCHBAY_TOKEN (a placeholder the person fills).
 */

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function curlCommand(input: { hubUrl: string; server: string; request: unknown; tokenFile?: string | undefined; sessionId?: string | undefined; protocolVersion?: string | undefined }): string {
  const url = `${input.hubUrl}/mcp/${encodeURIComponent(input.server)}`;
  const lines = [
    `# The hub token stays out of this command: ${input.tokenFile ? `PATCHBAY_TOKEN="$(cat ${quote(input.tokenFile)})"` : 'set PATCHBAY_TOKEN to the hub token first'}`,
    `curl -sS -N -X POST ${quote(url)} \\`,
    `  -H 'Authorization: Bearer '"$PATCHBAY_TOKEN" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H 'Accept: application/json, text/event-stream' \\`,
  ];
  if (input.protocolVersion) lines.push(`  -H ${quote(`MCP-Protocol-Version: ${input.protocolVersion}`)} \\`);
  // A request inside a session needs that session's id (the hub answers 404 once it has ended).
  if (input.sessionId) lines.push(`  -H ${quote(`Mcp-Session-Id: ${input.sessionId}`)} \\`);
  lines.push(`  --data-raw ${quote(JSON.stringify(input.request))}`);
  return lines.join('\n');
}
