/**
 * The window stays on the app's page: navigation elsewhere, redirects, webviews and new windows
 * are refused (a new-window request for a URL the app produced goes to the default browser), and
 * every permission a page could ask for (camera, notifications, clipboard reads, …) is denied.
 * A download (`<a download>` of a blob: or data: URL: the inspector's export) is no navigation:
 * Chromium never asks will-navigate about it, and downloads.ts decides it.
 */
import type { Session, WebContents } from 'electron';
import type { Logger } from '../core/index.js';
import { isAppUrl } from './app-origin.js';
import type { ExternalUrls } from './external-urls.js';

/** A navigation is allowed only within the app's own page (hash routes do not even ask). */
export function navigationAllowed(url: string): boolean {
  return isAppUrl(url);
}

export function guardWebContents(contents: WebContents, externalUrls: ExternalUrls, logger: Logger): void {
  contents.on('will-navigate', (event) => {
    if (navigationAllowed(event.url)) return;
    event.preventDefault();
    // A link to a sign-in page is a request to open it in the browser, not in this window.
    if (externalUrls.openFromRenderer(event.url) === 'refused') logger.warn('blocked a navigation away from the app');
  });
  contents.on('will-redirect', (event) => {
    if (!navigationAllowed(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    externalUrls.openFromRenderer(url);
    return { action: 'deny' };
  });
}

export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
