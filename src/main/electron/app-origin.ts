/**
 * The window's own origin. The renderer is served from a custom, privileged scheme rather than
 * `file://` (which would give the page the reach of every local file): `app://patchbay/`.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'patchbay';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** True for a URL of the app's own pages (scheme and host; Node gives custom schemes an opaque origin, so compare the parts). */
export function isAppUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
}
