/**
 * `patchbay relay --url URL`: a relay for a remote server that is not in the config. It runs an
 * engine of its own in the process — a temporary data dir whose config holds just that server,
 * port 0, auth on — and pipes stdio to it as `relay <server>` pipes to the shared hub, so the
 * remote gets the engine's transport fallback, OAuth and reconnects. 2025-era lines enter the
 * engine's hub through its stdio door (hub/stdio-door.ts: in process, no HTTP hop); 2026-07-28
 * lines go to its `/mcp` door over loopback, as `relay <server>` sends them.
 *
 * The temporary dir keeps the embedded hub's discovery file and token away from the shared hub's
 * (which must not be overwritten or removed). OAuth tokens and `${secret:NAME}` references use
 * the data dir's secret store, so a sign-in is remembered from one run to the next.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dataPaths, FileSecretStore, readHubToken, loadEngine, platformOpener, type Logger, type OpenUrl } from '../core/index.js';
import { delay } from './response-reader.js';
import type { RelayOutput } from './output-flow.js';
import { runStdioRelay } from './stdio-relay.js';

export interface RemoteRelayFlags {
  headers: Record<string, string>;
  transport: 'auto' | 'http' | 'sse';
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
}

export interface UrlRelayOptions extends RemoteRelayFlags {
  url: string;
  /** The data dir whose secret store (OAuth tokens, `${secret:NAME}`) the embedded engine uses. */
  dataDir: string;
  stdin: NodeJS.ReadableStream;
  stdout: RelayOutput;
  logger: Logger;
  /** Opens the sign-in page; default: $BROWSER when set (POSIX), else the platform's opener. */
  openUrl?: OpenUrl;
}

/** The embedded engine's config: the one server, named after its host; no capture to keep. */
export function urlRelayConfig(options: Omit<UrlRelayOptions, 'stdin' | 'stdout' | 'logger' | 'dataDir'>): { serverId: string; config: Record<string, unknown> } {
  const server: Record<string, unknown> = { url: options.url };
  if (Object.keys(options.headers).length > 0) server.headers = options.headers;
  if (options.transport !== 'auto') server.transport = options.transport === 'http' ? 'streamable-http' : 'sse';
  const oauth: Record<string, string> = {};
  if (options.clientId !== undefined) oauth.clientId = options.clientId;
  if (options.clientSecret !== undefined) oauth.clientSecret = options.clientSecret;
  if (options.clientMetadataUrl !== undefined) oauth.clientMetadataUrl = options.clientMetadataUrl;
  if (Object.keys(oauth).length > 0) server.oauth = oauth;
  const serverId = serverIdFor(options.url);
  return { serverId, config: { mcpServers: { [serverId]: server }, inspector: { enabled: false, history: false } } };
}

/** A config server id (it shows in sign-in prompts and logs) from the URL's host. */
export function serverIdFor(url: string): string {
  const host = new URL(url).hostname
    .replace(/^\[|\]$/g, '')
    .replace(/[^A-Za-z0-9_.-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '');
  return host.slice(0, 64) || 'remote';
}

export async function runUrlRelay(options: UrlRelayOptions): Promise<void> {
  // The engine is loaded only for --url: `relay <server>` never pays for it.
  const { startEngine } = await loadEngine();
  const { serverId, config } = urlRelayConfig(options);
  const home = await mkdtemp(path.join(os.tmpdir(), 'patchbay-relay-'));
  // The temp dir holds the embedded hub's token: it goes even when shutdown is cut short.
  const removeHome = (): void => rmSync(home, { recursive: true, force: true });
  process.once('exit', removeHome);
  const secrets = await FileSecretStore.open(dataPaths(options.dataDir).secretsFile);
  let engine: Awaited<ReturnType<typeof startEngine>> | undefined;
  try {
    await writeFile(path.join(home, 'config.json'), JSON.stringify(config, null, 2), { mode: 0o600 });
    engine = await startEngine({
      dataDir: home,
      port: 0,
      auth: true,
      secrets,
      openUrl: options.openUrl ?? relayOpener(platformOpener),
    });
    const running = engine;
    const token = await readHubToken(running.tokenFile);
    const url = `${running.url}/mcp/${encodeURIComponent(serverId)}`;
    options.logger.debug(`relaying to ${options.url} through an embedded engine at ${running.url}`);
    await runStdioRelay({
      stdin: options.stdin,
      stdout: options.stdout,
      logger: options.logger,
      // The engine lives as long as this process: its address never changes.
      endpoint: { get: async () => ({ url, token }), invalidate: () => undefined },
      // Its close below ends the session (and the remote's) at once.
      deleteSession: false,
      // The engine is in this process: 2025-era lines enter its hub without an HTTP round trip to
      // itself (the hop was a quarter of the relay's CPU per call); 2026-07-28 lines, which have
      // no session, still take the /mcp door above.
      openDoor: (output) => running.hub.openStdioDoor(serverId, output, (message) => options.logger.warn(message)),
    });
  } finally {
    // Clients give a relay a moment after closing stdin, then SIGTERM it. The signal must not
    // cut the cleanup short (that would leave the temp dir and its token behind), and a remote
    // that is slow to let go must not keep the process: the close is bounded.
    const hurry = (): void => removeHome();
    process.on('SIGTERM', hurry);
    process.on('SIGINT', hurry);
    // The timer goes with the race: left running it would hold the process up to its end.
    const bound = new AbortController();
    await Promise.race([engine?.close(), delay(SHUTDOWN_MS, bound.signal)]);
    bound.abort();
    await secrets.close();
    await rm(home, { recursive: true, force: true });
    process.off('exit', removeHome);
    process.off('SIGTERM', hurry);
    process.off('SIGINT', hurry);
  }
}

/** Longest wait for the embedded engine to close (it DELETEs the remote session, bounded at 2 s). */
const SHUTDOWN_MS = 3000;

/**
 * The platform opener (prints the URL to stderr, then opens it with the `open` package), except
 * that a set $BROWSER is run directly on POSIX (as a shell command, the URL as its last argument
 * or in place of `%s`): xdg-open is missing on many servers and CI machines, and its $BROWSER
 * support depends on the desktop environment.
 */
export function relayOpener(platformOpener: (o?: { open?: (url: string) => Promise<void> }) => OpenUrl, env: Readonly<Record<string, string | undefined>> = process.env): OpenUrl {
  const browser = env.BROWSER?.trim();
  if (!browser || process.platform === 'win32') return platformOpener();
  const command = browser.includes('%s') ? browser.split('%s').join('"$1"') : `${browser} "$1"`;
  return platformOpener({
    open: (url) =>
      new Promise((resolve, reject) => {
        // The URL is a positional parameter of the shell, never part of the command text.
        const child = spawn('/bin/sh', ['-c', command, 'sh', url], { detached: true, stdio: 'ignore' });
        child.once('error', (err) => reject(new Error(`$BROWSER: ${err.message}`)));
        child.once('spawn', () => {
          child.unref();
          resolve();
        });
      }),
  });
}
