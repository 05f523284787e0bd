/**
 * How a secret store keeps each value in its file. The file is the same either way,
 * `{"version": 1, "secrets": {"NAME": <stored>}}` with mode 0600; only the stored form differs:
 * - plain: the value itself (`secrets.json`, the CLI's and `patchbay serve`'s store);
 * - encrypted: base64 of the value encrypted by a cipher the caller injects (the desktop app's
 *   Electron safeStorage, i.e. the OS keychain: `secrets.safe.json`).
 * Both formats are what earlier versions wrote, so existing files keep opening.
 */
import { SecretStoreError } from './secret-store-error.js';

export interface SecretCodec {
  /** Names the file's format in messages ("a Patchbay secret file"). */
  readonly format: string;
  /** True when the values at rest are encrypted. */
  readonly encrypted: boolean;
  /** Whether a stored string can be this codec's at all (checked before anything is decoded). */
  accepts(stored: string): boolean;
  encode(value: string): Promise<string>;
  /** `reEncode`: the stored form should be written again (the OS rotated its key). */
  decode(stored: string, name: string, file: string): Promise<{ value: string; reEncode: boolean }>;
}

/**
 * What the encrypted codec needs from the OS: Electron's safeStorage has this shape (the desktop
 * adapts it in src/main/electron/secrets/encryptor.ts); tests pass an AES cipher.
 */
export interface SecretCipher {
  encrypt(plain: string): Promise<Uint8Array>;
  /** `reEncrypt`: the OS rotated its key; the value should be encrypted again. */
  decrypt(data: Buffer): Promise<{ value: string; reEncrypt: boolean }>;
}

export const plainCodec: SecretCodec = {
  format: 'a Patchbay secret file (expected {"version": 1, "secrets": {"NAME": "value"}})',
  encrypted: false,
  accepts: () => true,
  encode: async (value) => value,
  decode: async (stored) => ({ value: stored, reEncode: false }),
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function encryptedCodec(cipher: SecretCipher): SecretCodec {
  return {
    format: 'a Patchbay encrypted secret file',
    encrypted: true,
    accepts: (stored) => BASE64.test(stored),
    encode: async (value) => Buffer.from(await cipher.encrypt(value)).toString('base64'),
    decode: async (stored, name, file) => {
      try {
        const plain = await cipher.decrypt(Buffer.from(stored, 'base64'));
        return { value: plain.value, reEncode: plain.reEncrypt };
      } catch {
        // The cipher's own message is not passed on: it may quote the data.
        throw new SecretStoreError(
          'secret_file_undecryptable',
          `cannot decrypt secret '${name}' in ${file}: the OS keychain key for Patchbay changed or is missing. Restore the keychain entry, or remove the file and enter the keys again`,
        );
      }
    },
  };
}
