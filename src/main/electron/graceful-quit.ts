/**
 * Quitting stops the engine first: sessions closed, children sent stdin EOF → SIGTERM → SIGKILL,
 * hub.json removed. Electron's `before-quit` is held (preventDefault) until that is done or a
 * deadline passes, then the quit goes on. SIGINT/SIGTERM (a terminal's Ctrl-C in development,
 * a session logout) take the same path.
 */
import type { Logger } from '../core/index.js';

export interface QuitApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
  exit(code?: number): void;
}

export interface GracefulQuitDeps {
  app: QuitApp;
  /** Stops the engine (and flushes the log). */
  stop(): Promise<void>;
  logger: Logger;
  /** Longest wait for a clean stop before the app exits anyway. Default 10 s. */
  timeoutMs?: number;
  signals?: NodeJS.EventEmitter;
}

export interface GracefulQuit {
  /** True from the first quit request on (the window then closes instead of hiding). */
  quitting(): boolean;
}

export function installGracefulQuit(deps: GracefulQuitDeps): GracefulQuit {
  let phase: 'running' | 'stopping' | 'stopped' = 'running';
  deps.app.on('before-quit', (event) => {
    if (phase === 'stopped') return;
    event.preventDefault();
    if (phase === 'stopping') return;
    phase = 'stopping';
    const timeoutMs = deps.timeoutMs ?? 10_000;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    void Promise.race([deps.stop().then(() => 'stopped' as const), deadline])
      .then(
        (how) => {
          if (how === 'timeout') deps.logger.warn(`the engine did not stop within ${timeoutMs} ms; quitting anyway`);
        },
        (err: Error) => deps.logger.error(`stopping the engine failed: ${err.message}`),
      )
      .finally(() => {
        clearTimeout(timer);
        phase = 'stopped';
        deps.app.quit();
      });
  });
  const signals = deps.signals ?? process;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) signals.on(signal, () => deps.app.quit());
  return { quitting: () => phase !== 'running' };
}
