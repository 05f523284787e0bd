/**
 * What the app says when it cannot start its engine, or cannot start at all: a dialog with the
 * reason, where the log is, and what can be done — never a silent exit (issue 18). Pure: each
 * builder returns Electron's message-box options and the action behind each button.
 */
import type { MessageBoxOptions } from 'electron';

export type BootAction = 'retry' | 'reset-secrets' | 'open-logs' | 'quit' | 'dismiss';

export interface BootDialog {
  options: MessageBoxOptions;
  /** The action of each button, by index. */
  actions: BootAction[];
}

const LABELS: Record<BootAction, string> = {
  retry: 'Retry',
  'reset-secrets': 'Reset Secrets…',
  'open-logs': 'Open Logs Folder',
  quit: 'Quit Patchbay',
  dismiss: 'Keep Running',
};

function dialog(options: Omit<MessageBoxOptions, 'buttons'>, actions: BootAction[]): BootDialog {
  return {
    options: { ...options, buttons: actions.map((a) => LABELS[a]), defaultId: 0, cancelId: actions.indexOf(actions.includes('dismiss') ? 'dismiss' : 'quit'), noLink: true },
    actions,
  };
}

/** The engine did not start (secrets unreadable, port taken, a bad data dir…): the app stays in the tray. */
export function engineFailureDialog(failure: { message: string; code?: string | undefined }, logFile: string): BootDialog {
  if (failure.code === 'secret_file_undecryptable') {
    return dialog(
      {
        type: 'error',
        title: 'Patchbay could not read its secrets',
        message: 'Patchbay could not decrypt its saved keys, so its hub did not start.',
        detail: `${failure.message}\n\nIf the keychain entry can be restored, restore it and choose Retry. Reset Secrets moves the unreadable file aside (it is not deleted) and starts with no keys; you then enter them again.\n\nLog: ${logFile}`,
      },
      ['retry', 'reset-secrets', 'open-logs', 'dismiss', 'quit'],
    );
  }
  return dialog(
    {
      type: 'error',
      title: 'Patchbay hub failed to start',
      message: 'The Patchbay hub could not start. Patchbay keeps running in the tray; choose Retry there once the problem is fixed.',
      detail: `${failure.message}\n\nLog: ${logFile}`,
    },
    ['retry', 'open-logs', 'dismiss', 'quit'],
  );
}

export function resetSecretsConfirmDialog(secretsFile: string): BootDialog {
  return dialog(
    {
      type: 'warning',
      title: 'Reset secrets?',
      message: 'Start with no saved keys?',
      detail: `${secretsFile} is renamed (kept beside it, not deleted) and Patchbay starts with an empty secret store. Servers that need keys fail until you enter them again.`,
    },
    ['reset-secrets', 'dismiss'],
  );
}

/** The data dir cannot be written: nothing can run, the app quits after saying so. */
export function dataDirFailureDialog(dataDir: string, message: string): BootDialog {
  return dialog(
    {
      type: 'error',
      title: 'Patchbay cannot use its data folder',
      message: `Patchbay cannot write to its data folder, so it cannot start.`,
      detail: `${dataDir}\n${message}\n\nFix the folder's permissions, or start Patchbay with another one (--data-dir DIR, or the PATCHBAY_HOME environment variable).`,
    },
    ['quit'],
  );
}

/** Anything else that stopped the start (a bug): said, with the log, before the app exits. */
export function unexpectedFailureDialog(message: string, logFile: string): BootDialog {
  return dialog({ type: 'error', title: 'Patchbay could not start', message: 'Patchbay stopped while starting.', detail: `${message}\n\nLog: ${logFile}` }, ['quit']);
}
