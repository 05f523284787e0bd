/**
 * One app per data dir. The lock is Electron's (keyed by the userData dir, which main.ts puts
 * inside the data dir, so two data dirs may run side by side). A second launch hands its request
 * to the first one and exits: a person's launch focuses the window, a relay's hidden launch asks
 * the running instance to make sure its engine runs (it may have failed to start earlier).
 *
 * The request travels as the lock's `additionalData`; Electron documents that the argv the first
 * instance receives may be reordered or extended by Chromium, so argv is only the fallback.
 */
import { secondLaunchAction, type LaunchArgs, type SecondLaunchAction } from './launch-args.js';

export interface HandOff {
  hidden: boolean;
}

/** The part of Electron's `app` this needs (injected: tests pass a fake). */
export interface SingleInstanceApp {
  requestSingleInstanceLock(additionalData?: Record<string, unknown>): boolean;
  on(event: 'second-instance', listener: (event: unknown, argv: string[], workingDirectory: string, additionalData: unknown) => void): unknown;
}

export interface SingleInstanceHandlers {
  focus(): void;
  relayStart(): void;
}

/** True when this process is the first instance; false means: quit now, the other one has it. */
export function claimSingleInstance(app: SingleInstanceApp, launch: LaunchArgs, handlers: SingleInstanceHandlers): boolean {
  const handOff: HandOff = { hidden: launch.hidden };
  if (!app.requestSingleInstanceLock({ ...handOff })) return false;
  app.on('second-instance', (_event, argv, _cwd, additionalData) => {
    const action = actionOf(additionalData, argv);
    if (action.kind === 'relay-start') handlers.relayStart();
    else handlers.focus();
  });
  return true;
}

function actionOf(additionalData: unknown, argv: string[]): SecondLaunchAction {
  if (typeof additionalData === 'object' && additionalData !== null && typeof (additionalData as HandOff).hidden === 'boolean') {
    return (additionalData as HandOff).hidden ? { kind: 'relay-start' } : { kind: 'focus' };
  }
  return secondLaunchAction(argv);
}
