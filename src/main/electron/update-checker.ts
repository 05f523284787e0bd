/**
 * The update check: reads the release feed at start-up, once a day and when asked (tray: Check for
 * Updates…), and reports a newer release — a notification and a tray item that open the release
 * page. Nothing is downloaded or installed: the person installs the new version themselves.
 */
import type { Logger } from '../core/index.js';
import { isNewer, latestRelease, type FeedSetting, type Release } from './update-feed.js';

export type UpdateResult =
  | { kind: 'available'; release: Release }
  | { kind: 'up-to-date'; version: string }
  | { kind: 'disabled' }
  | { kind: 'failed'; message: string };

export interface UpdateCheckerDeps {
  feed: FeedSetting;
  currentVersion: string;
  /** Electron's `net.fetch` in the app (system proxy settings apply). */
  fetch(url: string, init: { headers: Record<string, string>; signal: AbortSignal }): Promise<Response>;
  /** Called once per newly found version by automatic checks, and on every manual check. */
  onResult(result: UpdateResult, manual: boolean): void;
  logger: Logger;
  timeoutMs?: number;
  intervalMs?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export class UpdateChecker {
  private found: Release | undefined;
  private announced: string | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: UpdateCheckerDeps) {}

  /** The newer release found by the last check, if any. */
  get available(): Release | undefined {
    return this.found;
  }

  /** Checks now, then once a day (the timer does not keep the app alive). */
  start(): void {
    if (!this.deps.feed.enabled) return;
    void this.check(false);
    this.timer = setInterval(() => void this.check(false), this.deps.intervalMs ?? DAY_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async check(manual: boolean): Promise<UpdateResult> {
    const result = await this.run();
    if (result.kind === 'available') this.found = result.release;
    if (result.kind === 'failed') this.deps.logger.warn(`update check failed: ${result.message}`);
    const news = result.kind === 'available' && this.announced !== result.release.version;
    if (result.kind === 'available') this.announced = result.release.version;
    if (manual || news) this.deps.onResult(result, manual);
    return result;
  }

  private async run(): Promise<UpdateResult> {
    const feed = this.deps.feed;
    if (!feed.enabled) return { kind: 'disabled' };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.deps.timeoutMs ?? 15_000);
    try {
      const res = await this.deps.fetch(feed.url, {
        headers: { Accept: 'application/vnd.github+json', 'User-Agent': `Patchbay/${this.deps.currentVersion}` },
        signal: controller.signal,
      });
      if (!res.ok) {
        await res.body?.cancel();
        return { kind: 'failed', message: `the release feed answered HTTP ${res.status}` };
      }
      const release = latestRelease(await res.json());
      if (!release) return { kind: 'failed', message: 'the release feed lists no release' };
      this.deps.logger.info(`update check: latest release ${release.version}, this is ${this.deps.currentVersion}`);
      return isNewer(release.version, this.deps.currentVersion) ? { kind: 'available', release } : { kind: 'up-to-date', version: this.deps.currentVersion };
    } catch (err) {
      return { kind: 'failed', message: controller.signal.aborted ? 'the release feed did not answer in time' : (err as Error).message };
    } finally {
      clearTimeout(timer);
    }
  }
}
