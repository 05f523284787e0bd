/**
 * Links to a trace viewer (the telemetry settings' `traceViewerUrl`, e.g.
 * `http://localhost:16686/trace/{traceId}`). Plain functions with no imports, so the engine, the
 * contract's schema and the renderer share them without bringing zod into the UI's bundle.
 */

/** A URL a browser may be sent to: http or https, nothing else (`javascript:` parses as a URL too). */
export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** A trace viewer template as a link: `{traceId}` replaced; undefined unless the result is an http(s) URL. */
export function traceViewerLink(template: string | undefined, traceId: string): string | undefined {
  if (!template?.includes('{traceId}')) return undefined;
  const url = template.replaceAll('{traceId}', encodeURIComponent(traceId));
  return isHttpUrl(url) ? url : undefined;
}
