// @ts-check
/**
 * Preloaded (`node --import`) into peer gateways that have no host flag (supergateway binds every
 * interface): any `listen(port)` without a host is pinned to 127.0.0.1, so the benchmark never
 * opens a port beyond loopback. Calls that name a host or a socket path are left alone.
 */
import net from 'node:net';

const listen = net.Server.prototype.listen;
/** @type {any} */ (net.Server.prototype).listen = function (/** @type {any[]} */ ...args) {
  const first = args[0];
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    if (typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
  } else if (
    first &&
    typeof first === 'object' &&
    first.path === undefined &&
    first.host === undefined
  ) {
    args[0] = { ...first, host: '127.0.0.1' };
  }
  return listen.apply(this, /** @type {any} */ (args));
};
