/**
 * How a sign-in page reaches the person. The engine never opens a browser itself: the shell
 * injects an `OpenUrl` (the desktop app: Electron's shell.openExternal).
 *
 * - `platformOpener`: the headless shell and the relay. Prints the URL to stderr (a terminal or a
 *   client's log shows it even where no browser can open) and opens it with the `open` package:
 *   `open` on macOS; PowerShell's `Start` on Windows and in WSL, the URL passed Base64-encoded so
 *   that no `&` or `%` is touched on the way (issue 17 item 9: `cmd /c start "" "…^&…"` kept the
 *   escape carets inside the quotes); `xdg-open` elsewhere (it honours $BROWSER).
 * - `followRedirectsOpener`: tests and the conformance run. Fetches the authorization URL and
 *   follows its redirects, which end at the hub's `/oauth/callback` when the authorization server
 *   approves without asking anyone.
 */

export type OpenUrl = (url: string, context: { serverId: string }) => void | Promise<void>;

/** The `open` package's default export, as far as it is used here. */
export type OpenTarget = (target: string) => Promise<unknown>;

/** Loads `open`: ESM-only and with dependencies of its own, so loaded on first use, never at start. */
export type LoadOpen = () => Promise<OpenTarget>;

const loadOpenPackage: LoadOpen = async () => (await import('open')).default;

/**
 * Opens `url` in the default browser. Resolves once the opener process started (on Windows, once
 * PowerShell handed the URL over); rejects when it cannot start (`xdg-open` missing, say).
 * `load` is for tests: a copy of `open` evaluated as on another platform.
 */
export async function openInBrowser(url: string, load: LoadOpen = loadOpenPackage): Promise<void> {
  const open = await load();
  await open(url);
}

export interface PlatformOpenerOptions {
  /** Where the "open this URL" line goes; default stderr. */
  print?: (line: string) => void;
  /** Opens the URL; default `openInBrowser`. The relay puts $BROWSER here; tests a recorder. */
  open?: (url: string) => Promise<void>;
}

export function platformOpener(options: PlatformOpenerOptions = {}): OpenUrl {
  const print = options.print ?? ((line: string) => process.stderr.write(`${line}\n`));
  const open = options.open ?? ((url: string) => openInBrowser(url));
  return async (url, { serverId }) => {
    print(`patchbay: sign in to '${serverId}' in your browser. If it does not open, open this URL:\n  ${url}`);
    await open(url);
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
