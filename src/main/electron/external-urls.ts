/**
 * What may leave the app for the default browser: http(s) URLs the app itself produced (an OAuth
 * sign-in page the engine built), nothing a page could make up. The engine's `openUrl` records
 * and opens; the window's `window.open` / `target=_blank` requests are honoured only for recorded
 * URLs — the UI's "Open sign-in page" link — and not twice within a few seconds, because the
 * engine opened the same page already when the sign-in started.
 */
import type { Logger } from '../core/index.js';

const MAX_REMEMBERED = 200;
const DUPLICATE_WINDOW_MS = 5000;

export type RendererOpenResult = 'opened' | 'duplicate' | 'refused';

export function isHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export class ExternalUrls {
  /** URL → when it was last opened (0: produced, not opened yet). Oldest first. */
  private readonly known = new Map<string, number>();

  constructor(
    private readonly openExternal: (url: string) => Promise<void>,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The app produced this URL (e.g. an `oauth.loginNeeded` event): the UI may open it later. */
  produced(url: string): void {
    if (!isHttpUrl(url)) return;
    if (!this.known.has(url)) this.remember(url, 0);
  }

  /** The engine's opener: only http(s), recorded, then opened. */
  async openProduced(url: string): Promise<void> {
    if (!isHttpUrl(url)) throw new Error('only http(s) URLs are opened in the browser');
    this.remember(url, this.now());
    await this.openExternal(url);
  }

  /** A page asked to open `url` in a new window: the browser gets it only if the app produced it. */
  openFromRenderer(url: string): RendererOpenResult {
    const last = this.known.get(url);
    if (last === undefined || !isHttpUrl(url)) {
      this.logger.warn('refused to open a URL the app did not produce', { origin: originOf(url) });
      return 'refused';
    }
    if (last !== 0 && this.now() - last < DUPLICATE_WINDOW_MS) return 'duplicate';
    this.remember(url, this.now());
    void this.openExternal(url).catch((err: Error) => this.logger.warn(`could not open the browser: ${err.message}`));
    return 'opened';
  }

  private remember(url: string, at: number): void {
    this.known.delete(url);
    this.known.set(url, at);
    while (this.known.size > MAX_REMEMBERED) this.known.delete(this.known.keys().next().value!);
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(unparsable)';
  }
}
