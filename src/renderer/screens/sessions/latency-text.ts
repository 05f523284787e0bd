/**
 * An exchange's latency in words, with whose time it was. A client's call waits for the server;
 * a server's own request (sampling, elicitation, roots) waits for the client — the other leg's
 * time is then the client's, never "the server's".
 */
import type { Exchange } from '../../../shared/api/inspector-contract.js';
import { formatMs } from '../../components/format.js';

export function latencyText(x: Pick<Exchange, 'status' | 'latencyMs' | 'upstreamLatencyMs' | 'requester'>): string {
  if (x.status === 'pending') return 'still running';
  const total = formatMs(x.latencyMs);
  if (x.upstreamLatencyMs === undefined) return total;
  const hub = formatMs(Math.max(0, (x.latencyMs ?? 0) - x.upstreamLatencyMs));
  const other = formatMs(x.upstreamLatencyMs);
  return x.requester === 'server' ? `${total} (the client answered in ${other}, hub ${hub})` : `${total} (server ${other}, hub ${hub})`;
}
