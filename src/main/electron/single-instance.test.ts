import { describe, expect, it, vi } from 'vitest';
import { parseLaunchArgs } from './launch-args.js';
import { claimSingleInstance, type SingleInstanceApp } from './single-instance.js';

type Listener = (event: unknown, argv: string[], cwd: string, additionalData: unknown) => void;

/** Two "processes" sharing one lock, as Electron's requestSingleInstanceLock does. */
function lockPair(): { first: SingleInstanceApp; second: SingleInstanceApp; launchSecond(argv: string[], data?: unknown): void } {
  let holder: Listener | undefined;
  let held = false;
  let lastData: unknown;
  const make = (): SingleInstanceApp => ({
    requestSingleInstanceLock: (data) => {
      lastData = data;
      if (held) return false;
      held = true;
      return true;
    },
    on: (_event, listener) => {
      holder = listener;
    },
  });
  // With no `data`, the second launch's own hand-off data (what Electron passes) is delivered.
  return { first: make(), second: make(), launchSecond: (...args: [string[], unknown?]) => holder?.({}, args[0], '/', args.length > 1 ? args[1] : lastData) };
}

describe('single instance', () => {
  it('the second launch gets no lock; a person launching again focuses the window', () => {
    const pair = lockPair();
    const handlers = { focus: vi.fn(), relayStart: vi.fn() };
    expect(claimSingleInstance(pair.first, parseLaunchArgs([]), handlers)).toBe(true);
    expect(claimSingleInstance(pair.second, parseLaunchArgs(['/Applications/Patchbay.app/Contents/MacOS/Patchbay']), { focus: vi.fn(), relayStart: vi.fn() })).toBe(false);
    pair.launchSecond(['/Applications/Patchbay.app/Contents/MacOS/Patchbay']);
    expect(handlers.focus).toHaveBeenCalledTimes(1);
    expect(handlers.relayStart).not.toHaveBeenCalled();
  });

  it("a relay's hidden launch hands a relay-start request to the running instance (no window)", () => {
    const pair = lockPair();
    const handlers = { focus: vi.fn(), relayStart: vi.fn() };
    claimSingleInstance(pair.first, parseLaunchArgs([]), handlers);
    const relayArgv = ['/opt/Patchbay/patchbay-desktop', '--hidden', '--data-dir', '/home/me/.config/patchbay'];
    expect(claimSingleInstance(pair.second, parseLaunchArgs(relayArgv), { focus: vi.fn(), relayStart: vi.fn() })).toBe(false);
    pair.launchSecond(relayArgv);
    expect(handlers.relayStart).toHaveBeenCalledTimes(1);
    expect(handlers.focus).not.toHaveBeenCalled();
  });

  it('trusts the hand-off data over argv (Chromium may rewrite argv), and falls back to argv', () => {
    const pair = lockPair();
    const handlers = { focus: vi.fn(), relayStart: vi.fn() };
    claimSingleInstance(pair.first, parseLaunchArgs([]), handlers);
    pair.launchSecond(['/x/Patchbay', '--allow-file-access-from-files'], { hidden: true });
    pair.launchSecond(['/x/Patchbay', '--hidden'], undefined);
    pair.launchSecond(['/x/Patchbay', '--hidden'], { hidden: false });
    expect(handlers.relayStart).toHaveBeenCalledTimes(2);
    expect(handlers.focus).toHaveBeenCalledTimes(1);
  });

  it("passes a relay launch's hand-off id to the running instance (for its answer), and only a well-formed one", () => {
    const pair = lockPair();
    const relayStart = vi.fn();
    claimSingleInstance(pair.first, parseLaunchArgs([]), { focus: vi.fn(), relayStart });
    const id = '0b1c2d3e-4f50-4162-8374-95a6b7c8d9e0';
    expect(claimSingleInstance(pair.second, parseLaunchArgs(['/x', '--hidden']), { focus: vi.fn(), relayStart: vi.fn() }, id)).toBe(false);
    pair.launchSecond(['/x', '--hidden']);
    pair.launchSecond(['/x', '--hidden'], { hidden: true, handOffId: '../../x' });
    expect(relayStart.mock.calls).toEqual([[id], [undefined]]);
  });

  it('reads --hidden and --data-dir from the command line', () => {
    expect(parseLaunchArgs(['/app', '--hidden', '--data-dir', '/d'])).toEqual({ hidden: true, dataDir: '/d' });
    expect(parseLaunchArgs(['/app', '--data-dir=/e'])).toEqual({ hidden: false, dataDir: '/e' });
    expect(parseLaunchArgs(['/app', '--data-dir'])).toEqual({ hidden: false });
  });
});
