/**
 * Which secret store the desktop app gives the engine: the encrypted one when the OS has a key to
 * protect it with, else the same 0600 file store as the CLI (said in the log, never silently).
 * On Linux without a secret service safeStorage falls back to `basic_text`, a hard-coded key:
 * that is no better than 0600 and would only hide the secrets from `patchbay secrets`.
 */
import path from 'node:path';
import { dataPaths } from '../../core/index.js';
import type { Logger } from '../../core/index.js';
import { FileSecretStore } from '../../core/index.js';
import type { SecretStore } from '../../core/index.js';
import type { Encryptor } from './encryptor.js';
import { SafeStorageSecretStore, SAFE_SECRETS_FILE } from './safe-storage-store.js';
import { AbsorbingSecretStore } from './secret-migration.js';


export interface DesktopSecrets {
  store: SecretStore & { close(): Promise<void> };
  kind: 'encrypted' | 'file';
  /** Why the file store was chosen (for the log and docs/desktop.md). */
  reason?: string;
}

export async function openDesktopSecrets(options: { dataDir: string; encryptor: Encryptor; logger: Logger }): Promise<DesktopSecrets> {
  const { dataDir, encryptor, logger } = options;
  const secretsFile = dataPaths(dataDir).secretsFile;
  const reason = await unavailableReason(encryptor);
  if (reason !== undefined) {
    logger.warn(`secrets stay in ${secretsFile} (mode 0600): ${reason}`);
    return { store: await FileSecretStore.open(secretsFile), kind: 'file', reason };
  }
  const safe = await SafeStorageSecretStore.open(path.join(dataDir, SAFE_SECRETS_FILE), encryptor);
  const store = new AbsorbingSecretStore(safe, secretsFile, logger);
  await store.absorb();
  return { store, kind: 'encrypted' };
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
