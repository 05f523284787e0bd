/**
 * What a launch of the desktop app asks for, read from its command line. Pure: `main.ts` passes
 * `process.argv`, and the single-instance hand-off passes the second launch's argv.
 *
 * - `--hidden`: start in the tray without opening the window. The relay uses it when it starts
 *   the app because no hub was running (a Claude Desktop session must not pop a window up), and
 *   the login item uses it.
 * - `--data-dir DIR` (or `--data-dir=DIR`): the data dir, as for the CLI; the relay appends it.
 */
export const HIDDEN_FLAG = '--hidden';
export const DATA_DIR_FLAG = '--data-dir';

export interface LaunchArgs {
  hidden: boolean;
  dataDir?: string;
}

export function parseLaunchArgs(argv: readonly string[]): LaunchArgs {
  const out: LaunchArgs = { hidden: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === HIDDEN_FLAG) out.hidden = true;
    else if (arg === DATA_DIR_FLAG) {
      const value = argv[i + 1];
      if (value !== undefined && !value.startsWith('--')) {
        out.dataDir = value;
        i++;
      }
    } else if (arg.startsWith(`${DATA_DIR_FLAG}=`)) {
      const value = arg.slice(DATA_DIR_FLAG.length + 1);
      if (value !== '') out.dataDir = value;
    }
  }
  return out;
}

/** What the running instance does when the app is launched again (`second-instance`). */
export type SecondLaunchAction =
  /** A person opened the app again: show and focus the window. */
  | { kind: 'focus' }
  /** A relay found no hub and launched the app: make sure the engine runs, show nothing. */
  | { kind: 'relay-start' };

export function secondLaunchAction(argv: readonly string[]): SecondLaunchAction {
  return parseLaunchArgs(argv).hidden ? { kind: 'relay-start' } : { kind: 'focus' };
}
