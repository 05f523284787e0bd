// @ts-check
/**
 * Preloaded (`node --expose-gc --import`) into the hub for the memory workload only. Over the IPC
 * channel the harness opens, `{ probe: 'mem' }` runs a full GC and answers with
 * `process.memoryUsage()`, so the bench can read retained memory rather than garbage not yet
 * collected. It never keeps the hub alive: the channel is unref'd and dropped on SIGTERM/SIGINT.
 */
if (process.send) {
  process.on('message', (/** @type {any} */ m) => {
    if (!m || m.probe !== 'mem') return;
    const gc = /** @type {undefined | (() => void)} */ (globalThis.gc);
    gc?.();
    gc?.();
    process.send?.({ probe: 'mem', gc: gc !== undefined, usage: process.memoryUsage() });
  });
  process.channel?.unref();
  const drop = () => {
    if (process.connected) process.disconnect();
  };
  process.once('SIGTERM', drop);
  process.once('SIGINT', drop);
}
