/**
 * A lean MCP client for load: raw Streamable HTTP POSTs over keep-alive sockets (initialize, then
 * `tools/call echo` as fast or as paced as asked). The SDK client costs more CPU per call, and on
 * two shared cores the browser under test needs that CPU; the hub sees the same wire traffic.
 */
import http from 'node:http';

const PROTOCOL = '2025-11-25';

export interface RawSession {
  sessionId: string;
  /** One echo call; resolves when its answer has arrived in full, rejects on a non-result answer. */
  echo(text: string): Promise<void>;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export async function openRawSession(mcpUrl: string, token: string, clientName: string): Promise<RawSession> {
  const url = new URL(mcpUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const request = (body: unknown, sessionId: string | undefined, method = 'POST'): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = {
        Authorization: `Bearer ${token}`,
        Accept: 'application/json, text/event-stream',
        'Content-Type': 'application/json',
        'MCP-Protocol-Version': PROTOCOL,
      };
      if (sessionId) headers['Mcp-Session-Id'] = sessionId;
      const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method, headers, agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });

  const init = await request(
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: clientName, version: '1.0.0' } } },
    undefined,
  );
  const sessionId = init.headers['mcp-session-id'];
  if (init.status !== 200 || typeof sessionId !== 'string') throw new Error(`initialize failed: HTTP ${init.status} ${init.body.slice(0, 300)}`);
  const note = await request({ jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId);
  if (note.status !== 202) throw new Error(`notifications/initialized answered HTTP ${note.status}`);

  let nextId = 1;
  return {
    sessionId,
    async echo(text) {
      const id = nextId++;
      const answer = await request({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } }, sessionId);
      if (answer.status !== 200 || !answer.body.includes('"result"')) throw new Error(`echo ${id} failed: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
    },
    async close() {
      await request(undefined, sessionId, 'DELETE').catch(() => undefined);
      agent.destroy();
    },
  };
}

/**
 * Sends `total` echo calls at about `perSecond` calls a second (paced in 20 ms ticks, at most
 * `concurrency` in flight), calling `onTick` between ticks so a test can act while traffic flows.
 * Resolves with how many were sent once every answer arrived.
 */
export async function pacedEchoes(
  session: RawSession,
  o: { total: number; perSecond: number; concurrency: number; prefix: string; onTick?: () => Promise<void> | void },
): Promise<number> {
  const tickMs = 20;
  const perTick = Math.max(1, Math.round((o.perSecond * tickMs) / 1000));
  let sent = 0;
  let inFlight = 0;
  const pending = new Set<Promise<void>>();
  const failures: unknown[] = [];
  const started = Date.now();
  while (sent < o.total) {
    // How many should have gone by now; never more than `concurrency` waiting at once.
    const due = Math.min(o.total, Math.floor(((Date.now() - started) / tickMs + 1) * perTick));
    while (sent < due && inFlight < o.concurrency) {
      const p = session.echo(`${o.prefix}-${sent}`).finally(() => {
        inFlight--;
        pending.delete(p);
      });
      p.catch((e: unknown) => failures.push(e));
      pending.add(p);
      inFlight++;
      sent++;
    }
    await o.onTick?.();
    await new Promise((resolve) => setTimeout(resolve, tickMs));
  }
  await Promise.allSettled(pending);
  if (failures.length > 0) throw new Error(`${failures.length} of ${sent} echo calls failed; first: ${String(failures[0])}`);
  return sent;
}

/** As many echo calls as `concurrency` allows, until `total` were answered. */
export async function floodEchoes(session: RawSession, total: number, concurrency: number, prefix: string): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total) {
      const n = next++;
      await session.echo(`${prefix}-${n}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
