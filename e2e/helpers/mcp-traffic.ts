/** A real MCP client (the official SDK) talking to the hub, to drive traffic the UI must show. */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export interface TrafficClient {
  client: Client;
  close(): Promise<void>;
}

/** `elicit`: the client supports elicitation and answers every request with this content. */
export async function connectClient(url: string, token: string, name = 'e2e-client', options: { elicit?: Record<string, string | number | boolean> } = {}): Promise<TrafficClient> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name, version: '1.0.0' }, options.elicit ? { capabilities: { elicitation: {} } } : undefined);
  if (options.elicit) {
    const content = options.elicit;
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content }));
  }
  client.onerror = () => {};
  await client.connect(transport);
  return {
    client,
    close: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}
