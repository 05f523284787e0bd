/**
 * Which secret store the desktop app gives the engine: core's one secret store, encrypted with the
 * OS keychain's key (Electron safeStorage) in `<data dir>/secrets.safe.json` when the OS has a key
 * to protect it with, else the same 0600 `secrets.json` as the CLI (said in the log, never
 * silently). On Linux without a secret service safeStorage falls back to `basic_text`, a
 * hard-coded key: that is no better than 0600 and would only hide the secrets from `patchbay secrets`.
 */
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { dataPaths, errCode, FileSecretStore } from '../../core/index.js';
import type { Logger, SecretStore } from '../../core/index.js';
import type { Encryptor } from './encryptor.js';
import { AbsorbingSecretStore } from './secret-migration.js';

export const SAFE_SECRETS_FILE = 'secrets.safe.json';

export interface DesktopSecrets {
  store: SecretStore & { close(): Promise<void> };
  kind: 'encrypted' | 'file';
  /** Why the file store was chosen (for the log and docs/desktop.md). */
  reason?: string;
}

export function safeSecretsFile(dataDir: string): string {
  return path.join(dataDir, SAFE_SECRETS_FILE);
}

export async function openDesktopSecrets(options: { dataDir: string; encryptor: Encryptor; logger: Logger }): Promise<DesktopSecrets> {
  const { dataDir, encryptor, logger } = options;
  const secretsFile = dataPaths(dataDir).secretsFile;
  const reason = await unavailableReason(encryptor);
  if (reason !== undefined) {
    logger.warn(`secrets stay in ${secretsFile} (mode 0600): ${reason}`);
    return { store: await FileSecretStore.open(secretsFile), kind: 'file', reason };
  }
  const safe = await FileSecretStore.open(safeSecretsFile(dataDir), { cipher: encryptor });
  const store = new AbsorbingSecretStore(safe, secretsFile, logger);
  await store.absorb();
  return { store, kind: 'encrypted' };
}

/**
 * "Reset secrets" after the keychain key changed: the unreadable file (and its backup) is moved
 * aside, not deleted — restoring the keychain entry makes it readable again. Returns where it went.
 */
export async function setAsideSecrets(dataDir: string, now: Date = new Date()): Promise<string> {
  const file = safeSecretsFile(dataDir);
  const aside = `${file}.unreadable-${now.toISOString().replace(/[:.]/g, '-')}`;
  await rename(file, aside).catch((err: unknown) => {
    if (errCode(err) !== 'ENOENT') throw err;
  });
  await rename(`${file}.bak`, `${aside}.bak`).catch(() => undefined);
  return aside;
}

async function unavailableReason(encryptor: Encryptor): Promise<string | undefined> {
  let available: boolean;
  try {
    available = await encryptor.available();
  } catch (err) {
    return `the OS keychain could not be reached (${(err as Error).message})`;
  }
  if (!available) return 'the OS keychain offers no encryption key to this app';
  const backend = encryptor.backend?.();
  if (backend === 'basic_text') return 'no secret service (GNOME Keyring, KWallet) runs in this desktop session';
  return undefined;
}
