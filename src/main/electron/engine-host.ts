/**
 * The engine inside the desktop app: started by an injected function (desktop.ts opens the secrets
 * and calls core's startEngine with the desktop's pieces), restartable after a failure (a relay's
 * hand-off or the tray's Retry), stopped cleanly at quit. Listeners hear about state changes and
 * every engine event, across restarts.
 */
import type { ApiEvent } from '../../shared/api/contract.js';
import type { RunningEngine } from '../core/index.js';
import type { Logger } from '../core/index.js';

export type HubState =
  | { state: 'stopped' }
  | { state: 'starting' }
  | { state: 'running'; url: string; port: number }
  /** `code`: the failure's own code when it has one (e.g. `secret_file_undecryptable`). */
  | { state: 'error'; message: string; code?: string };

export interface EngineHostDeps {
  /** Opens what the engine needs and starts it (core's `startEngine`); injected for tests. */
  start(): Promise<RunningEngine>;
  logger: Logger;
}

export class EngineHost {
  private engine: RunningEngine | undefined;
  private hubState: HubState = { state: 'stopped' };
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private offEvents: (() => void) | undefined;
  private readonly stateListeners = new Set<(state: HubState) => void>();
  private readonly eventListeners = new Set<(event: ApiEvent) => void>();

  constructor(private readonly deps: EngineHostDeps) {}

  get state(): HubState {
    return this.hubState;
  }

  /** The running engine, if any. */
  get current(): RunningEngine | undefined {
    return this.engine;
  }

  /** Starts the engine unless it runs or is starting; a failure is kept as the `error` state. */
  start(): Promise<void> {
    if (this.engine || this.stopping) return this.stopping ?? Promise.resolve();
    this.starting ??= this.run().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Stops the engine (sessions closed, children ended, hub.json removed). Safe to call twice. */
  async stop(): Promise<void> {
    await this.starting;
    const engine = this.engine;
    if (!engine) return;
    this.stopping ??= (async () => {
      this.offEvents?.();
      this.offEvents = undefined;
      try {
        await engine.close();
      } finally {
        this.engine = undefined;
        this.stopping = undefined;
        this.set({ state: 'stopped' });
      }
    })();
    return this.stopping;
  }

  onState(listener: (state: HubState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Every API event of the engine (re-attached when the engine restarts). */
  onEvent(listener: (event: ApiEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  private async run(): Promise<void> {
    this.set({ state: 'starting' });
    try {
      const engine = await this.deps.start();
      this.engine = engine;
      this.offEvents = engine.api.subscribe((event) => {
        for (const listener of this.eventListeners) listener(event);
      }).unsubscribe;
      this.deps.logger.info(`engine running at ${engine.url}`);
      this.set({ state: 'running', url: engine.url, port: engine.port });
    } catch (err) {
      const message = (err as Error).message;
      const code = (err as { code?: unknown }).code;
      this.deps.logger.error(`the engine could not start: ${message}`);
      this.set({ state: 'error', message, ...(typeof code === 'string' ? { code } : {}) });
    }
  }

  private set(state: HubState): void {
    this.hubState = state;
    for (const listener of this.stateListeners) listener(state);
  }
}
