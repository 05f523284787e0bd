/**
 * What a shell passes to `startEngine` (engine.ts): kept apart so the composition reads alone.
 */
import type { ClientsRuntimeOptions } from '../clients/clients-runtime.js';
import type { RequestTracer } from '../hub/tracing.js';
import type { OpenUrl } from '../oauth/openers.js';
import type { SandboxOptions } from '../sandbox/sandbox-spawn.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { StdioServerConfig } from '../../../shared/config-schema.js';
import type { CatalogEngineOptions } from './engine-catalog.js';
import type { StartAtLogin } from './settings-api.js';

export interface EngineOptions {
  dataDir: string;
  configFile?: string;
  port?: number;
  host?: string;
  auth?: boolean;
  /** Tuning for tests: housekeeping interval and SSE keep-alive interval, in ms. */
  tickMs?: number;
  keepAliveMs?: number;
  /** Injected secret store (the desktop app's safeStorage one); default: the 0600 file store. */
  secrets?: SecretStore;
  /** The desktop shell's "start at login" switch (absent headless). */
  startAtLogin?: StartAtLogin;
  /** Where the built UI is (default: dist/renderer of this package). */
  uiRoot?: string;
  /**
   * Opens a remote server's sign-in page (OAuth). The desktop app passes Electron's
   * shell.openExternal; default: the platform's opener, with the URL also printed to stderr.
   */
  openUrl?: OpenUrl;
  /** How long a request that needs a sign-in waits for it before it fails (default 2 minutes). */
  oauthLoginWaitMs?: number;
  /** Capture messages for the inspector (default true; false e.g. to measure what capture costs). */
  capture?: boolean;
  /**
   * Traces every forwarded client request (hub/tracing.ts): telemetry's tracer when telemetry is
   * on; a test may pass one of its own.
   */
  tracer?: RequestTracer;
  /**
   * The demo server a fresh data dir starts with (core/config/first-run.ts); false for none.
   * Default: this Node running Patchbay's built demo server (none inside Electron: the desktop app passes its own).
   */
  demoServer?: StdioServerConfig | false;
  /** Client-config export: the relay launcher (the desktop app passes its own) and, for tests, the machine whose clients are managed. */
  clients?: Pick<ClientsRuntimeOptions, 'launcher' | 'host' | 'loginPath' | 'desktopPath'>;
  /**
   * One of several replicas behind a load balancer (docs/deploy.md): put first in the session ids
   * this hub mints, and the name of its own files in a shared data dir (`replicas/<id>/`: the
   * discovery file, the inspector's history), which replicas must not share.
   */
  replicaId?: string;
  /** The catalog (docs/catalog.md): tests give their own registry copies or the PATH runtimes are looked for on. */
  catalog?: CatalogEngineOptions;
  /** Sandboxed servers' host lists: denials (for the audit trail, the UI) and, for tests, name resolution. */
  sandbox?: SandboxOptions;
}
