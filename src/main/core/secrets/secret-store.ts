/**
 * Where secrets live. The engine only ever sees this interface: the CLI and the headless
 * shell use the 0600 file store, the desktop app an Electron safeStorage-backed one.
 */
export interface SecretStore {
  /** The value, or undefined when no secret has that name. */
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  /** True when a secret was deleted, false when there was none. */
  delete(name: string): Promise<boolean>;
  /** Names only, sorted; values never leave the store through a listing. */
  list(): Promise<string[]>;
}

/** Secret names: letters, digits, `_`, `-`, `.`; what `${secret:NAME}` can reference. */
export const SECRET_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
