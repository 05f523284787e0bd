/**
 * What "Copy Hub URL and Token" puts on the clipboard: the hub's aggregated endpoint with the
 * Authorization header every client needs (a URL alone is refused with 401), as the `mcpServers`
 * entry that HTTP clients' configs take — paste it under a name of your choice.
 */
export function hubConnectionText(hubUrl: string, token: string | undefined): string {
  const entry = { type: 'http', url: `${hubUrl}/mcp`, ...(token ? { headers: { Authorization: `Bearer ${token}` } } : {}) };
  return JSON.stringify(entry, null, 2);
}
