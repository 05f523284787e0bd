/** A real MCP client (the official SDK) talking to the hub, to drive traffic the UI must show. */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export interface TrafficClient {
  client: Client;
  close(): Promise<void>;
}

export async function connectClient(url: string, token: string, name = 'e2e-client'): Promise<TrafficClient> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name, version: '1.0.0' });
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
