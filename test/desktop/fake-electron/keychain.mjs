// The fake safeStorage's cipher (electron.mjs): AES-256-GCM under a key derived from a text that
// stands in for the OS keychain's entry. Shared with the tests, which write secret files "from
// another keychain" with it.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** @param {string} keychainEntry */
export function keychainCipher(keychainEntry) {
  const key = createHash('sha256').update(keychainEntry).digest();
  return {
    /** @param {string} plain */
    encrypt: async (plain) => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    /** @param {Buffer} data */
    decrypt: async (data) => {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return { value: Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8'), reEncrypt: false };
    },
  };
}

/** The keychain entry the fake uses unless FAKE_ELECTRON_KEYCHAIN_KEY names another. */
export const DEFAULT_KEYCHAIN_ENTRY = 'the keychain of this machine';
