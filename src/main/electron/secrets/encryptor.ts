/**
 * What the desktop's secrets need from the OS: Electron's `safeStorage` (macOS Keychain, Windows
 * DPAPI, the Linux secret service) behind a small interface. `encrypt`/`decrypt` are the cipher
 * core's secret store takes (its encrypted codec); `available`/`backend` decide whether to use it
 * at all (desktop-secrets.ts). Tested in plain Node with an injected encryptor; desktop.ts adapts
 * the real one.
 */
import type { SafeStorage } from 'electron';

export interface Encryptor {
  /** False when the OS offers no protected key (then the app keeps the 0600 file store). */
  available(): Promise<boolean>;
  encrypt(plain: string): Promise<Buffer>;
  /** `reEncrypt`: the OS rotated its key; write the value again. */
  decrypt(data: Buffer): Promise<{ value: string; reEncrypt: boolean }>;
  /** Linux only: the backend safeStorage picked; `basic_text` is no protection at all. */
  backend?(): string;
}

/** Adapts Electron's safeStorage (its asynchronous API; call only after `app` is ready). */
export function safeStorageEncryptor(safeStorage: SafeStorage, platform: NodeJS.Platform): Encryptor {
  return {
    available: () => safeStorage.isAsyncEncryptionAvailable(),
    encrypt: (plain) => safeStorage.encryptStringAsync(plain),
    decrypt: async (data) => {
      const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(data);
      return { value: result, reEncrypt: shouldReEncrypt };
    },
    ...(platform === 'linux' ? { backend: () => safeStorage.getSelectedStorageBackend() } : {}),
  };
}
