/**
 * The window's Content-Security-Policy: the UI's own scripts and styles only, no inline code, no
 * network at all (everything goes through the preload bridge), no frames, no plugins, no forms
 * that leave. Sent as a header on every app:// response (app-protocol.ts).
 */
export const DESKTOP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  // Audio results of a tool (the playground renders them): inline data only.
  "media-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "object-src 'none'",
  // The MCP Apps sandbox page only (app://patchbay/app-sandbox, app-protocol.ts): every other
  // response says frame-ancestors 'none'.
  "frame-src 'self'",
  "worker-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers on every response of the app:// scheme. */
export const DESKTOP_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': DESKTOP_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};
