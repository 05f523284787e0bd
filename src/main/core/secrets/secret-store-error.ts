/** What a secret store refuses or cannot do, with a code the API and the desktop app act on. */
export type SecretStoreErrorCode =
  | 'secret_name_invalid'
  | 'secret_value_invalid'
  | 'secret_file_invalid'
  /** The file is well formed but a value cannot be decrypted (the OS keychain key changed or is gone). */
  | 'secret_file_undecryptable';

export class SecretStoreError extends Error {
  constructor(
    readonly code: SecretStoreErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SecretStoreError';
  }
}
