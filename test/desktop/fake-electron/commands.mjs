// Commands from the test over the Node IPC channel (see electron.mjs): tray clicks, closing the
// window, app:// requests and IPC calls as the window's page makes them, dialog answers.
// Each is answered with { type: 'reply', id, ok, value | error }.
import { currentTray } from './fake-tray.mjs';
import { ipcHandlers, notifications, pendingDialogs } from './fake-services.mjs';
import { defaultSession, protocolHandlers, windows } from './fake-windows.mjs';

/** @type {Record<string, (msg: any) => unknown>} */
const commands = {
  /** Clicks a tray menu item by label (exact, or the start of it). */
  'tray-click': ({ label }) => {
    const item = currentTray()?.menu.find((i) => i.label === label || (typeof i.label === 'string' && i.label.startsWith(label)));
    if (!item?.click) throw new Error(`no clickable tray item '${label}' in ${JSON.stringify(currentTray()?.menu.map((i) => i.label))}`);
    if (item.enabled === false) throw new Error(`tray item '${label}' is disabled`);
    item.click(item, undefined, {});
    return true;
  },
  /** The person closes the window (its close button). */
  'window-close': () => {
    const win = [...windows.values()][0];
    if (!win) throw new Error('no window');
    win.close();
    return true;
  },
  /** A request to the app's scheme, as the window's page would make it. */
  'scheme-fetch': async ({ url, method }) => {
    const handler = protocolHandlers.get(new URL(url).protocol.slice(0, -1));
    if (!handler) throw new Error(`no handler for ${url}`);
    const res = await handler(new Request(url, { method: method ?? 'GET' }));
    return { status: res.status, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()).toString('utf8') };
  },
  /** An IPC call from the window's page (its main frame at `frameUrl`). */
  'ipc-invoke': async ({ channel, arg, frameUrl }) => {
    const handler = ipcHandlers.get(channel);
    if (!handler) throw new Error(`no IPC handler for '${channel}'`);
    const win = [...windows.values()][0];
    if (!win) throw new Error('no window');
    return handler({ sender: win.webContents, senderFrame: { url: frameUrl ?? win.webContents.url, parent: null } }, arg);
  },
  'ipc-channels': () => [...ipcHandlers.keys()],
  /**
   * What Chromium does when a page clicks an `<a download>` (it is a download, not a navigation):
   * the default session's 'will-download' with a stand-in DownloadItem, from the window's page (or,
   * `fromWindow: false`, from some other web contents). Answers whether the app cancelled it and
   * whether it set a save path itself (none: Electron then shows its save dialog).
   */
  download: ({ url, filename, fromWindow }) => {
    const win = [...windows.values()][0];
    if (!win && fromWindow !== false) throw new Error('no window');
    const contents = fromWindow === false ? { id: -1 } : win?.webContents;
    let cancelled = false;
    /** @type {string | undefined} */
    let savePath;
    const item = {
      getURL: () => url,
      getFilename: () => filename ?? 'download',
      getMimeType: () => '',
      cancel: () => void (cancelled = true),
      setSavePath: (/** @type {string} */ p) => void (savePath = p),
      setSaveDialogOptions: () => undefined,
    };
    defaultSession.emit('will-download', { preventDefault: () => void (cancelled = true) }, item, contents);
    return { cancelled, savePath: savePath ?? null, handlers: defaultSession.listenerCount('will-download') };
  },
  'dialog-answer': ({ dialogId, response }) => {
    const answer = pendingDialogs.get(dialogId);
    if (!answer) throw new Error(`no open dialog ${dialogId}`);
    pendingDialogs.delete(dialogId);
    answer(response);
    return true;
  },
  'notification-click': ({ index }) => {
    const n = notifications[index];
    if (!n) throw new Error(`no notification ${index}`);
    n.emit('click');
    return true;
  },
  windows: () => [...windows.values()].map((w) => ({ id: w.id, visible: w.isVisible(), minimized: w.minimized, url: w.webContents.url, preload: w.options.webPreferences?.preload })),
};

/** Answers the test's commands (when there is a test at the other end of the IPC channel). */
export function installCommands() {
  if (process.send) {
    process.on('message', (/** @type {any} */ msg) => {
      if (!msg || msg.type !== 'command') return;
      const run = commands[msg.cmd];
      Promise.resolve()
        .then(() => {
          if (!run) throw new Error(`unknown command ${msg.cmd}`);
          return run(msg);
        })
        .then(
          (value) => process.send?.({ type: 'reply', id: msg.id, ok: true, value }),
          (/** @type {Error} */ err) => process.send?.({ type: 'reply', id: msg.id, ok: false, error: err.message }),
        );
    });
    // The channel must not keep the process alive on its own: Electron's lifetime is quit/exit.
    process.channel?.unref();
  }
}
