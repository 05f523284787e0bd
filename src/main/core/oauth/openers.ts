/**
 * How a sign-in page reaches the person. The engine never opens a browser itself: the shell
 * injects an `OpenUrl` (the desktop app: Electron's shell.openExternal).
 *
 * - `platformOpener`: the headless shell and the relay. Prints the URL to stderr (a terminal or a
 *   client's log shows it even where no browser can open) and runs the platform's opener:
 *   `open` (macOS), `xdg-open` (Linux and the BSDs; it honours $BROWSER), `start` (Windows).
 * - `followRedirectsOpener`: tests and the conformance run. Fetches the authorization URL and
 *   follows its redirects, which end at the hub's `/oauth/callback` when the authorization server
 *   approves without asking anyone.
 */
import { spawn } from 'node:child_process';

export type OpenUrl = (url: string, context: { serverId: string }) => void | Promise<void>;

export interface PlatformOpenerOptions {
  platform?: NodeJS.Platform;
  /** Where the "open this URL" line goes; default stderr. */
  print?: (line: string) => void;
  /** For tests: runs the opener command instead of spawning it. */
  run?: (command: string, args: string[]) => Promise<void>;
}

/** The command line that opens `url` in the default browser on `platform`. */
export function openerCommand(url: string, platform: NodeJS.Platform): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is a cmd built-in; the empty title keeps a quoted URL from being taken as one, and
  // cmd's metacharacters in the query (&, |, ^, <, >) must be escaped with ^.
  if (platform === 'win32') return { command: 'cmd', args: ['/d', '/s', '/c', `start "" "${url.replace(/[&|^<>%]/g, '^$&')}"`] };
  return { command: 'xdg-open', args: [url] };
}

function spawnDetached(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsVerbatimArguments: command === 'cmd' });
    child.once('error', (err) => reject(new Error(`${command}: ${err.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

export function platformOpener(options: PlatformOpenerOptions = {}): OpenUrl {
  const platform = options.platform ?? process.platform;
  const print = options.print ?? ((line: string) => process.stderr.write(`${line}\n`));
  const run = options.run ?? spawnDetached;
  return async (url, { serverId }) => {
    print(`patchbay: sign in to '${serverId}' in your browser. If it does not open, open this URL:\n  ${url}`);
    const { command, args } = openerCommand(url, platform);
    await run(command, args);
  };
}

/** Follows the sign-in page's redirects with an HTTP client (auto-approving authorization servers only). */
export function followRedirectsOpener(fetchImpl: (url: string) => Promise<Response> = (url) => fetch(url)): OpenUrl {
  return async (url) => {
    const res = await fetchImpl(url);
    await res.text();
    if (!res.ok) throw new Error(`the sign-in page answered HTTP ${res.status}`);
  };
}
