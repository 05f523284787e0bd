/**
 * One app per data dir. The lock is Electron's (keyed by the userData dir, which main.ts puts
 * inside the data dir, so two data dirs may run side by side). A second launch hands its request
 * to the first one and exits: a person's launch focuses the window, a relay's hidden launch asks
 * the running instance to make sure its engine runs (it may have failed to start earlier).
 *
 * The request travels as the lock's `additionalData`; Electron documents that the argv the first
 * instance receives may be reordered or extended by Chromium, so argv is only the fallback. A
 * relay's request carries a hand-off id: the first instance answers it (hand-off.ts) once its
 * engine runs or failed, and the second instance waits for that answer before it exits.
 */
import { isHandOffId } from './hand-off.js';
import { secondLaunchAction, type LaunchArgs, type SecondLaunchAction } from './launch-args.js';

export interface HandOff {
  hidden: boolean;
  /** Where the first instance answers a relay's request (hand-off.ts). */
  handOffId?: string;
}

/** The part of Electron's `app` this needs (injected: tests pass a fake). */
export interface SingleInstanceApp {
  requestSingleInstanceLock(additionalData?: Record<string, unknown>): boolean;
  on(event: 'second-instance', listener: (event: unknown, argv: string[], workingDirectory: string, additionalData: unknown) => void): unknown;
}

export interface SingleInstanceHandlers {
  focus(): void;
  /** `handOffId`: where to answer (absent when the request came through argv only). */
  relayStart(handOffId: string | undefined): void;
}

/**
 * True when this process is the first instance; false means: the other one has the request now.
 * `handOffId` goes along with a hidden launch (the relay's), for the answer.
 */
export function claimSingleInstance(app: SingleInstanceApp, launch: LaunchArgs, handlers: SingleInstanceHandlers, handOffId?: string): boolean {
  const handOff: HandOff = { hidden: launch.hidden, ...(launch.hidden && handOffId !== undefined ? { handOffId } : {}) };
  if (!app.requestSingleInstanceLock({ ...handOff })) return false;
  app.on('second-instance', (_event, argv, _cwd, additionalData) => {
    const action = actionOf(additionalData, argv);
    if (action.kind === 'relay-start') handlers.relayStart(handOffIdOf(additionalData));
    else handlers.focus();
  });
  return true;
}

function handOffIdOf(additionalData: unknown): string | undefined {
  const id = typeof additionalData === 'object' && additionalData !== null ? (additionalData as HandOff).handOffId : undefined;
  return isHandOffId(id) ? id : undefined;
}

function actionOf(additionalData: unknown, argv: string[]): SecondLaunchAction {
  if (typeof additionalData === 'object' && additionalData !== null && typeof (additionalData as HandOff).hidden === 'boolean') {
    return (additionalData as HandOff).hidden ? { kind: 'relay-start' } : { kind: 'focus' };
  }
  return secondLaunchAction(argv);
}
