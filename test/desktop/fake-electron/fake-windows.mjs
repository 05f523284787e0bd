// The fake Electron's protocol, session, BrowserWindow and webContents (see electron.mjs). A window
// "loads" its page by asking the registered scheme handler, as Chromium would; nothing is drawn.
import { EventEmitter } from 'node:events';
import { record, requireReady, runtime } from './recorder.mjs';

/** @type {Map<number, FakeBrowserWindow>} */
export const windows = new Map();

/** @type {Map<string, (request: Request) => Promise<Response> | Response>} */
export const protocolHandlers = new Map();
export const protocol = {
  registerSchemesAsPrivileged(/** @type {unknown[]} */ schemes) {
    record('protocol.registerSchemesAsPrivileged', { schemes });
    if (runtime.ready) throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
  },
  handle(/** @type {string} */ scheme, /** @type {(request: Request) => Promise<Response>} */ handler) {
    requireReady('protocol.handle');
    record('protocol.handle', { scheme });
    protocolHandlers.set(scheme, handler);
  },
  unhandle(/** @type {string} */ scheme) {
    protocolHandlers.delete(scheme);
  },
  isProtocolHandled: (/** @type {string} */ scheme) => protocolHandlers.has(scheme),
};

export const defaultSession = Object.assign(new EventEmitter(), {
  setPermissionRequestHandler: (/** @type {unknown} */ handler) => void record('session.setPermissionRequestHandler', { set: typeof handler === 'function' }),
  setPermissionCheckHandler: (/** @type {unknown} */ handler) => void record('session.setPermissionCheckHandler', { set: typeof handler === 'function' }),
});
export const session = {
  get defaultSession() {
    requireReady('session.defaultSession');
    return defaultSession;
  },
};

let nextContentsId = 1;
class FakeWebContents extends EventEmitter {
  constructor(/** @type {FakeBrowserWindow} */ win) {
    super();
    this.id = nextContentsId++;
    this.win = win;
    this.url = '';
    this.loading = false;
    this.destroyed = false;
    /** @type {unknown} */
    this.windowOpenHandler = undefined;
  }
  setWindowOpenHandler(/** @type {unknown} */ handler) {
    this.windowOpenHandler = handler;
    record('webContents.setWindowOpenHandler');
  }
  isLoading() {
    return this.loading;
  }
  isDestroyed() {
    return this.destroyed;
  }
  getURL() {
    return this.url;
  }
  /** Loads like Chromium would ask: the document through the registered scheme handler. @param {string} url */
  async loadURL(url) {
    record('webContents.loadURL', { url });
    const sameDocument = this.url !== '' && url.split('#')[0] === this.url.split('#')[0];
    this.url = url;
    if (sameDocument) return;
    this.loading = true;
    const scheme = new URL(url).protocol.slice(0, -1);
    const handler = protocolHandlers.get(scheme);
    const res = handler ? await handler(new Request(url.split('#')[0] ?? url)) : new Response('', { status: 404 });
    this.loading = false;
    record('webContents.did-finish-load', { url, status: res.status });
    if (res.status !== 200) throw new Error(`ERR_FILE_NOT_FOUND (-6) loading '${url}'`);
    this.emit('did-navigate', {}, url);
    this.emit('did-finish-load');
    this.win.emit('ready-to-show');
  }
  reload() {
    record('webContents.reload');
    const url = this.url;
    this.url = '';
    void this.loadURL(url).catch(() => undefined);
  }
  send(/** @type {string} */ channel) {
    record('webContents.send', { channel });
  }
}

class FakeBrowserWindow extends EventEmitter {
  constructor(/** @type {Record<string, any>} */ options = {}) {
    super();
    requireReady('new BrowserWindow');
    this.id = windows.size + 1;
    this.options = options;
    this.visible = options.show !== false;
    this.minimized = false;
    this.destroyed = false;
    this.webContents = new FakeWebContents(this);
    windows.set(this.id, this);
    record('BrowserWindow.new', { id: this.id, options: JSON.parse(JSON.stringify(options)) });
  }
  static getAllWindows() {
    return [...windows.values()];
  }
  loadURL(/** @type {string} */ url) {
    return this.webContents.loadURL(url);
  }
  show() {
    this.visible = true;
    this.minimized = false;
    record('BrowserWindow.show', { id: this.id });
  }
  showInactive() {
    this.visible = true;
    record('BrowserWindow.showInactive', { id: this.id });
  }
  hide() {
    this.visible = false;
    record('BrowserWindow.hide', { id: this.id });
  }
  focus() {
    record('BrowserWindow.focus', { id: this.id });
  }
  minimize() {
    this.minimized = true;
    record('BrowserWindow.minimize', { id: this.id });
  }
  restore() {
    this.minimized = false;
    record('BrowserWindow.restore', { id: this.id });
  }
  isMinimized() {
    return this.minimized;
  }
  isVisible() {
    return this.visible && !this.destroyed;
  }
  isDestroyed() {
    return this.destroyed;
  }
  /** What the window's close button does: 'close' (preventable), then gone. */
  close() {
    record('BrowserWindow.close', { id: this.id });
    this.closeByApp();
  }
  /** @returns {boolean} true when the window closed */
  closeByApp() {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    if (prevented) return false;
    this.destroy();
    return true;
  }
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.webContents.destroyed = true;
    windows.delete(this.id);
    record('BrowserWindow.destroy', { id: this.id });
    this.webContents.emit('destroyed');
    this.emit('closed');
  }
}
export { FakeBrowserWindow };
