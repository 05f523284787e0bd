/**
 * A test's own HTTP server on loopback (a scripted remote, a recording server): listening on
 * 127.0.0.1 on a free port, and closed after the test with every connection it still holds.
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { onCleanup } from './cleanup.js';

/** Listens on 127.0.0.1 (port 0) and returns the port; the server is closed after the test. */
export async function listenOnLoopback(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}
