/** What the app says when its engine cannot start, and what each button does. */
import { describe, expect, it, vi } from 'vitest';
import type { MessageBoxOptions } from 'electron';
import { dataDirFailureDialog, engineFailureDialog } from './boot-dialogs.js';
import { reportEngineFailure, type BootFailureDeps } from './boot-failure.js';
import type { HubState } from './engine-host.js';

function scripted(answers: string[], retries: HubState[]): BootFailureDeps & { shown: string[] } {
  const shown: string[] = [];
  return {
    shown,
    showMessageBox: async (options: MessageBoxOptions) => {
      shown.push(String(options.title));
      const label = answers.shift();
      return { response: label === undefined ? (options.cancelId ?? 0) : options.buttons!.indexOf(label) };
    },
    logFile: '/d/logs/desktop.log',
    secretsFile: '/d/secrets.safe.json',
    retry: vi.fn(async (): Promise<HubState> => retries.shift() ?? { state: 'running', url: 'http://127.0.0.1:1', port: 1 }),
    resetSecrets: vi.fn(async () => undefined),
    openLogs: vi.fn(),
    quit: vi.fn(),
  };
}

describe('engine failure dialog', () => {
  it('names the log, offers a reset only for unreadable secrets, and never defaults to quitting', () => {
    const secrets = engineFailureDialog({ message: "cannot decrypt secret 'A'", code: 'secret_file_undecryptable' }, '/d/logs/desktop.log');
    expect(secrets.options.buttons).toEqual(['Retry', 'Reset Secrets…', 'Open Logs Folder', 'Keep Running', 'Quit Patchbay']);
    expect(secrets.options.detail).toContain('/d/logs/desktop.log');
    expect(secrets.options.buttons![secrets.options.cancelId!]).toBe('Keep Running');
    const port = engineFailureDialog({ message: 'port 5 is in use' }, '/d/logs/desktop.log');
    expect(port.options.buttons).toEqual(['Retry', 'Open Logs Folder', 'Keep Running', 'Quit Patchbay']);
    expect(dataDirFailureDialog('/nope', 'EACCES: denied').options.detail).toContain('/nope\nEACCES: denied');
  });

  it('reset: asks first, sets the secrets aside, retries; a retry that fails again asks again', async () => {
    const deps = scripted(['Reset Secrets…', 'Reset Secrets…', 'Open Logs Folder', 'Retry'], [{ state: 'error', message: 'still broken' }]);
    await reportEngineFailure({ message: 'cannot decrypt', code: 'secret_file_undecryptable' }, deps);
    expect(deps.shown).toEqual(['Patchbay could not read its secrets', 'Reset secrets?', 'Patchbay hub failed to start', 'Patchbay hub failed to start']);
    expect(deps.resetSecrets).toHaveBeenCalledTimes(1);
    expect(deps.openLogs).toHaveBeenCalledTimes(1);
    expect(deps.retry).toHaveBeenCalledTimes(2);
    expect(deps.quit).not.toHaveBeenCalled();
  });

  it('a declined reset changes nothing; Keep Running leaves the tray to it; Quit quits', async () => {
    const declined = scripted(['Reset Secrets…', 'Keep Running', 'Keep Running'], []);
    await reportEngineFailure({ message: 'x', code: 'secret_file_undecryptable' }, declined);
    expect(declined.resetSecrets).not.toHaveBeenCalled();
    expect(declined.retry).not.toHaveBeenCalled();
    const quitting = scripted(['Quit Patchbay'], []);
    await reportEngineFailure({ message: 'port in use' }, quitting);
    expect(quitting.quit).toHaveBeenCalledTimes(1);
  });
});
