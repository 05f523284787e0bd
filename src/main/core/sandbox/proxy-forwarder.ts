/**
 * The sandbox's side of a host list: a network namespace of its own has only its own loopback,
 * so the server cannot reach the hub's proxy (host-proxy.ts) by TCP. bwrap binds the proxy's unix
 * socket into the sandbox and starts this small Node script first; it listens on
 * 127.0.0.1:<port> inside the namespace, pipes each connection to the unix socket, and runs the
 * server as its child with the same stdio (the JSON-RPC pipes pass straight through) and the
 * proxy variables set. It ends with the server, with the server's exit code or signal, and passes
 * SIGTERM/SIGINT/SIGHUP on.
 *
 * With `"subprocesses": false` the server must not fork, but this script must, once: it starts
 * the server through a nested bwrap (a user namespace inside the sandbox, the same file system)
 * that loads the seccomp filter (seccomp.ts) it is given on fd 3, so only the server is filtered.
 */

/** The forwarder's port inside the sandbox's own network namespace (nothing else listens there). */
export const FORWARDER_PORT = 3128;
/** Where the directory holding the hub's proxy socket appears inside the sandbox. */
export const PROXY_DIR_INSIDE = '/run/patchbay-proxy';
export const PROXY_SOCKET_NAME = 'proxy.sock';

// CommonJS for `node -e`. argv: port, socket path, seccomp filter (base64, or "-"), command, args…
const SCRIPT = String.raw`
const net = require('node:net'), { spawn } = require('node:child_process');
const [port, sock, filter, command, ...args] = process.argv.slice(1);
delete process.env.ELECTRON_RUN_AS_NODE;
const listener = net.createServer((c) => {
  const u = net.connect(sock);
  c.on('error', () => u.destroy());
  u.on('error', () => c.destroy());
  c.pipe(u).pipe(c);
});
listener.on('error', (err) => { process.stderr.write('patchbay sandbox: the proxy forwarder cannot listen: ' + err.message + '\n'); process.exit(70); });
listener.listen(Number(port), '127.0.0.1', () => {
  const nested = filter !== '-';
  const file = nested ? 'bwrap' : command;
  const argv = nested ? ['--unshare-user', '--dev-bind', '/', '/', '--die-with-parent', '--chdir', process.cwd(), '--seccomp', '3', '--', command, ...args] : args;
  const child = spawn(file, argv, { stdio: nested ? ['inherit', 'inherit', 'inherit', 'pipe'] : 'inherit' });
  if (nested) child.stdio[3].end(Buffer.from(filter, 'base64'));
  child.on('error', (err) => { process.stderr.write('patchbay sandbox: cannot start ' + command + ': ' + err.message + '\n'); process.exit(127); });
  child.on('exit', (code, signal) => { if (signal) { process.removeAllListeners(signal); process.kill(process.pid, signal); } else process.exit(code ?? 1); });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
});
`;

/** The command line that runs the forwarder, then `command args…`, inside the sandbox. */
export function forwarderCommand(node: string, command: string, args: readonly string[], seccomp: Buffer | undefined): string[] {
  return [node, '-e', SCRIPT, '--', String(FORWARDER_PORT), `${PROXY_DIR_INSIDE}/${PROXY_SOCKET_NAME}`, seccomp ? seccomp.toString('base64') : '-', command, ...args];
}

/** What points the server's HTTP clients at the forwarder (both spellings: tools read either). */
export function proxyEnv(url = `http://127.0.0.1:${FORWARDER_PORT}`): Record<string, string> {
  return { HTTPS_PROXY: url, HTTP_PROXY: url, https_proxy: url, http_proxy: url, ALL_PROXY: url, NO_PROXY: '', no_proxy: '' };
}
