// The fake Electron's bookkeeping (see electron.mjs): whether `ready` has fired, and the record
// of every call, sent to the test over the Node IPC channel in call order.

export const runtime = { ready: false };
let seq = 0;

/** The app dir (app.getAppPath()): launch-app.mjs sets it. */
export const appPath = process.env.FAKE_ELECTRON_APP_PATH ?? process.cwd();

/** @param {string} api @param {Record<string, unknown>} [detail] */
export function record(api, detail = {}) {
  const entry = { type: 'call', seq: ++seq, api, ready: runtime.ready, ...detail };
  if (process.send) process.send(entry);
  return entry;
}

/** @param {string} api */
export function requireReady(api) {
  // Electron throws for these before `ready`; the app must not depend on them earlier.
  if (!runtime.ready) throw new Error(`${api} cannot be used before the app is ready (fake Electron enforces Electron's rule)`);
}

// Electron keeps the process alive until app.quit()/app.exit(), whatever JavaScript is pending.
const keepAlive = setInterval(() => {}, 1 << 30);

/** Ends the process as Electron does at quit/exit (after the last records went out). @param {number} code @param {() => void} [cleanup] */
export function exitNow(code, cleanup) {
  record('process.exit', { code });
  cleanup?.();
  clearInterval(keepAlive);
  setImmediate(() => process.exit(code));
}
