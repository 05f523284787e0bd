// The fake Electron's ipcMain, safeStorage, dialog, Notification, shell, clipboard, crashReporter
// and net (see electron.mjs).
import { EventEmitter } from 'node:events';
import { DEFAULT_KEYCHAIN_ENTRY, keychainCipher } from './keychain.mjs';
import { record, requireReady } from './recorder.mjs';

const env = process.env;

/** @type {Map<string, (event: unknown, ...args: unknown[]) => unknown>} */
export const ipcHandlers = new Map();
export const ipcMain = Object.assign(new EventEmitter(), {
  handle(/** @type {string} */ channel, /** @type {(event: unknown, ...args: unknown[]) => unknown} */ listener) {
    if (ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    ipcHandlers.set(channel, listener);
    record('ipcMain.handle', { channel });
  },
  removeHandler(/** @type {string} */ channel) {
    ipcHandlers.delete(channel);
  },
});

// safeStorage: AES-256-GCM under a key standing in for the OS keychain's (FAKE_ELECTRON_KEYCHAIN_KEY)
const keychain = env.FAKE_ELECTRON_KEYCHAIN ?? 'available'; // available | unavailable | basic_text
const cipher = keychainCipher(env.FAKE_ELECTRON_KEYCHAIN_KEY ?? DEFAULT_KEYCHAIN_ENTRY);
export const safeStorage = {
  isAsyncEncryptionAvailable: async () => {
    requireReady('safeStorage');
    record('safeStorage.isAsyncEncryptionAvailable');
    return keychain !== 'unavailable';
  },
  getSelectedStorageBackend: () => {
    requireReady('safeStorage');
    return keychain === 'basic_text' ? 'basic_text' : 'gnome_libsecret';
  },
  encryptStringAsync: async (/** @type {string} */ plain) => {
    requireReady('safeStorage');
    record('safeStorage.encryptStringAsync');
    return cipher.encrypt(plain);
  },
  decryptStringAsync: async (/** @type {Buffer} */ data) => {
    requireReady('safeStorage');
    record('safeStorage.decryptStringAsync');
    // Electron rejects with its own error when the key does not fit; so does the cipher.
    const { value } = await cipher.decrypt(data);
    return { result: value, shouldReEncrypt: false };
  },
};

let nextDialog = 1;
/** @type {Map<number, (response: number) => void>} */
export const pendingDialogs = new Map();
export const dialog = {
  /** @param {...any} args (options) or (window, options) */
  showMessageBox(...args) {
    requireReady('dialog.showMessageBox');
    const options = args.length > 1 ? args[1] : args[0];
    const id = nextDialog++;
    record('dialog.showMessageBox', { dialogId: id, options });
    // Without a test at the other end (a process the app started itself), the box is dismissed.
    if (!process.send) return Promise.resolve({ response: options.cancelId ?? 0, checkboxChecked: false });
    return new Promise((resolve) => pendingDialogs.set(id, (response) => resolve({ response, checkboxChecked: false })));
  },
  showErrorBox(/** @type {string} */ title, /** @type {string} */ content) {
    record('dialog.showErrorBox', { title, content });
  },
};

/** @type {FakeNotification[]} */
export const notifications = [];
class FakeNotification extends EventEmitter {
  static isSupported() {
    return env.FAKE_ELECTRON_NOTIFICATIONS !== 'off';
  }
  constructor(/** @type {{ title: string, body: string }} */ options) {
    super();
    requireReady('new Notification');
    this.options = options;
  }
  show() {
    notifications.push(this);
    record('Notification.show', { index: notifications.length - 1, title: this.options.title, body: this.options.body });
  }
}
export { FakeNotification };

export const shell = {
  openExternal: async (/** @type {string} */ url) => void record('shell.openExternal', { url }),
  openPath: async (/** @type {string} */ target) => (record('shell.openPath', { path: target }), ''),
};
export const clipboard = { writeText: (/** @type {string} */ text) => void record('clipboard.writeText', { text }) };
export const crashReporter = { start: (/** @type {unknown} */ options) => void record('crashReporter.start', { options }) };
export const net = {
  fetch: (/** @type {string} */ url, /** @type {RequestInit} */ init) => {
    requireReady('net.fetch');
    record('net.fetch', { url });
    return fetch(url, init);
  },
};
export const nativeTheme = Object.assign(new EventEmitter(), { shouldUseDarkColors: false });
export const powerMonitor = new EventEmitter();

