// @ts-check
/**
 * A stand-in OTLP collector for the telemetry rows of bench/run.mjs (`hub-otel`): an HTTP server
 * on loopback that takes every POST to /v1/traces and /v1/metrics, counts it, and answers 200
 * with an empty body, as a collector does. It decodes nothing: the bench measures what exporting
 * costs the hub, not a collector. `closedPort()` gives the `hub-otel-down` row a collector that
 * is down: a loopback port bound once and closed, so connecting to it is refused.
 */
import { createServer } from 'node:http';
import net from 'node:net';

/**
 * @returns {Promise<{ endpoint: string, stats: { requests: number, bytes: number }, close(): Promise<void> }>}
 */
export async function startOtlpSink() {
  const stats = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on('data', (/** @type {Buffer} */ chunk) => (stats.bytes += chunk.length));
    req.on('end', () => {
      stats.requests++;
      res
        .writeHead(req.method === 'POST' ? 200 : 404, { 'content-type': 'application/x-protobuf' })
        .end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}

/** A loopback port nothing listens on. @returns {Promise<number>} */
export async function closedPort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(() => resolve(undefined)));
  return port;
}
