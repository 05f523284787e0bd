/**
 * Saying that the engine failed to start, and doing what the person picks: retry, set unreadable
 * secrets aside and retry, open the logs folder, keep running in the tray (error state), or quit.
 * Electron's dialog and the actions are injected (boot-dialogs.ts builds the dialogs).
 */
import type { MessageBoxOptions } from 'electron';
import { engineFailureDialog, resetSecretsConfirmDialog, type BootAction, type BootDialog } from './boot-dialogs.js';
import type { HubState } from './engine-host.js';

export interface BootFailureDeps {
  showMessageBox(options: MessageBoxOptions): Promise<{ response: number }>;
  logFile: string;
  secretsFile: string;
  /** Starts the engine again; resolves with the state it ended in. */
  retry(): Promise<HubState>;
  /** Moves the unreadable secret file aside. */
  resetSecrets(): Promise<void>;
  openLogs(): void;
  quit(): void;
}

export async function reportEngineFailure(failure: { message: string; code?: string | undefined }, deps: BootFailureDeps): Promise<void> {
  let current = failure;
  for (;;) {
    const action = await ask(deps, engineFailureDialog(current, deps.logFile));
    if (action === 'quit') return deps.quit();
    if (action === 'dismiss') return;
    if (action === 'open-logs') {
      deps.openLogs();
      continue;
    }
    if (action === 'reset-secrets') {
      if ((await ask(deps, resetSecretsConfirmDialog(deps.secretsFile))) !== 'reset-secrets') continue;
      await deps.resetSecrets();
    }
    const state = await deps.retry();
    if (state.state !== 'error') return;
    current = state;
  }
}

async function ask(deps: BootFailureDeps, dialog: BootDialog): Promise<BootAction> {
  const { response } = await deps.showMessageBox(dialog.options);
  return dialog.actions[response] ?? 'dismiss';
}
