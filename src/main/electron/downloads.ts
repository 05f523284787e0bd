/**
 * Downloads the window's page starts: the inspector's JSONL / HAR export (a `blob:` URL the page
 * made, clicked as an `<a download>`, src/renderer/app/sessions-commands.ts) and a tool result's
 * binary content (a `data:` link with `download`, src/renderer/components/content-view.tsx).
 *
 * Chromium runs a click on an `<a download>` whose content the page may read — a `blob:` of its
 * own origin, or `data:` — as a download, not a navigation (Blink's HTMLAnchorElement::HandleClick
 * → LocalFrame::DownloadURL): `will-navigate` never sees it, so the navigation guard
 * (navigation-guard.ts) keeps refusing every navigation to a `blob:` or `data:` URL while the
 * download goes on. (For a URL of another origin Chromium ignores `download` and navigates — the
 * guard refuses that.) No directive of the CSP (csp.ts) governs downloads: `connect-src 'none'`
 * is about fetch/XHR, and there is no `sandbox` directive, whose flags would block downloads
 * without `allow-downloads`. The session's `will-download` is where the app decides:
 * - allowed: from the window's own page, a `blob:` URL of app://patchbay or a `data:` URL — no
 *   byte comes from the network. The app sets no save path, so Electron asks where to save it
 *   (its save dialog, the suggested file name in the Downloads folder): nothing is written
 *   without the person's choice, and cancelling the dialog cancels the download;
 * - refused: anything else (a web URL behind a `download` link in rendered content, a download
 *   from any other web contents) — the app downloads nothing from the network on a page's behalf.
 */
import type { DownloadItem, Event, WebContents } from 'electron';
import type { Logger } from '../core/index.js';
import { isAppUrl } from './app-origin.js';

/** True for a download URL the page may save: its own `blob:` URLs, or inline `data:`. */
export function downloadAllowed(url: string): boolean {
  if (/^data:/i.test(url)) return true;
  if (/^blob:/i.test(url)) return isAppUrl(url.slice('blob:'.length));
  return false;
}

export interface DownloadGuardDeps {
  /** The window's page (undefined before the window exists): the only web contents that may download. */
  windowContentsId(): number | undefined;
  logger: Logger;
}

type DownloadListener = (event: Event, item: DownloadItem, contents: WebContents) => void;
/** What of a Session the guard uses (Electron's session.defaultSession is one). */
export interface DownloadSession {
  on(event: 'will-download', listener: DownloadListener): unknown;
}

export function guardDownloads(session: DownloadSession, deps: DownloadGuardDeps): void {
  const listener: DownloadListener = (event, item, contents) => {
    const url = item.getURL();
    // Electron may pass no web contents (a download the main process started): not the window's.
    const fromWindow = contents?.id !== undefined && contents.id === deps.windowContentsId();
    if (fromWindow && downloadAllowed(url)) {
      deps.logger.info(`download of ${item.getFilename()} (${item.getMimeType() || 'unknown type'}): asking where to save it`);
      return;
    }
    event.preventDefault();
    // The URL may carry data; its scheme is enough to tell what was refused.
    deps.logger.warn(`refused a download (${schemeOf(url)} URL${fromWindow ? '' : ', not from the window'})`);
  };
  session.on('will-download', listener);
}

function schemeOf(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(url);
  return match ? match[1]!.toLowerCase() : 'a malformed';
}
