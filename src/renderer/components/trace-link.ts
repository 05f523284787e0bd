/**
 * A trace viewer's URL for a trace: the template's `{traceId}` replaced (the same rule as the
 * engine's `traceViewerLink` in src/shared/api/telemetry-contract.ts, restated here because the
 * renderer imports no runtime code from the contract: it would bring zod into the bundle).
 */

/** Only http(s) leaves the app as a link: a `javascript:` template parses as a URL too. */
export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** The link, or undefined when there is no template or it does not make an http(s) URL. */
export function traceViewerLink(template: string | undefined, traceId: string): string | undefined {
  if (!template?.includes('{traceId}')) return undefined;
  const url = template.replaceAll('{traceId}', encodeURIComponent(traceId));
  return isHttpUrl(url) ? url : undefined;
}
