/**
 * What the hub needs of a configured server: its id, how to open an upstream connection to it,
 * and the few settings that change how the endpoint treats it. servers/server-runtime.ts
 * implements it; the hub never sees the config itself.
 */
import type { UpstreamConnection } from '../upstream/upstream.js';

export interface ServerPort {
  readonly id: string;
  /** A fresh upstream per request, no sessions (P19). */
  readonly stateless: boolean;
  /** The server's own request timeout (`requestTimeoutMs`), if it sets one. */
  readonly requestTimeoutMs: number | undefined;
  /** How long it may take to answer `initialize` (`startupTimeoutMs`), if it sets one. */
  readonly startupTimeoutMs: number | undefined;
  /** How the hub reaches it, for observers: `stdio`, `stdio-shared`, `stdio-stateless`, `streamable-http`, `sse`, `http`. */
  readonly transportLabel: string;
  /** Opens an upstream connection (spawning a child, linking to a shared one, or a remote session). */
  connect(): Promise<UpstreamConnection>;
}
