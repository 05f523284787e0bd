/**
 * Replicas of the built `patchbay serve` and a real nginx in front of them, on loopback ports the
 * test picks, for test/deploy/. Every process is started by pid and stopped by pid (SIGTERM, and
 * SIGKILL for what is left); nginx's config, logs and temp dirs live in a temp dir.
 *
 * The nginx config is the one docs/deploy.md shows ("nginx"), with the replicas' addresses filled
 * in: keep the two in step.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { childrenOf, isAlive, killQuietly } from '../helpers/processes.js';
import { REPO_ROOT } from '../helpers/repo-paths.js';
import { waitFor, withTimeout } from '../helpers/waits.js';

export const BIN = path.join(REPO_ROOT, 'bin', 'patchbay.js');
export const NGINX = process.env.PATCHBAY_NGINX ?? '/usr/sbin/nginx';

export interface ReplicaAddress {
  id: string;
  port: number;
}

/**
 * nginx in front of the replicas: 2026-07-28 requests (no Mcp-Session-Id) and `initialize` go to
 * any replica (round robin); a request whose session id (the `Mcp-Session-Id` header, or the
 * legacy door's `?sessionId=`) starts with `<id>.` goes to that replica,
 * or — when it cannot be reached — to the others as backups, which answer 404 for a session they
 * do not hold, so the client initializes again. No buffering of SSE, long read timeouts, and a
 * retry on the next replica only for a connection that failed before the request was sent.
 */
export function nginxConfig(o: { dir: string; listen: number; replicas: ReplicaAddress[] }): string {
  const server = (r: ReplicaAddress, extra = ''): string => `    server 127.0.0.1:${r.port}${extra};`;
  const pinned = o.replicas.map(
    (r) => `  upstream patchbay_${r.id} {
${server(r, ' max_fails=1 fail_timeout=10s')}
${o.replicas
  .filter((other) => other !== r)
  .map((other) => server(other, ' backup'))
  .join('\n')}
  }`,
  );
  return `# Written by test/deploy/lb-harness.ts (the config of docs/deploy.md, on loopback ports).
worker_processes 1;
daemon off;
pid ${o.dir}/nginx.pid;
error_log ${o.dir}/error.log warn;
events { worker_connections 1024; }
http {
  log_format replicas '$remote_addr "$request" $status upstream=$upstream_addr session=$http_mcp_session_id';
  access_log ${o.dir}/access.log replicas;
  client_body_temp_path ${o.dir}/tmp/body;
  proxy_temp_path ${o.dir}/tmp/proxy;
  fastcgi_temp_path ${o.dir}/tmp/fastcgi;
  uwsgi_temp_path ${o.dir}/tmp/uwsgi;
  scgi_temp_path ${o.dir}/tmp/scgi;

  # 2025 sessions: the replica tag before the first '.' of the session id picks the replica: the
  # Mcp-Session-Id header (Streamable HTTP), or ?sessionId= (the legacy HTTP+SSE door's POSTs).
  map "$http_mcp_session_id$arg_sessionid" $patchbay_upstream {
    default patchbay;
${o.replicas.map((r) => `    "~^${r.id}\\." patchbay_${r.id};`).join('\n')}
  }

  upstream patchbay {
${o.replicas.map((r) => server(r, ' max_fails=1 fail_timeout=10s')).join('\n')}
  }
${pinned.join('\n')}

  server {
    listen 127.0.0.1:${o.listen};
    client_max_body_size 64m;

    location / {
      proxy_pass http://$patchbay_upstream;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 3;
      proxy_connect_timeout 2s;
    }
  }
}
`;
}

/** A load balancer the test started (nginx or HAProxy). */
export interface LoadBalancer {
  pid: number;
  port: number;
  url: string;
  accessLog(): Promise<string>;
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

/** Starts nginx with the config above (its master by pid; its workers are the master's children). */
export async function startNginx(dir: string, listen: number, replicas: ReplicaAddress[]): Promise<LoadBalancer> {
  // Workers of a master started as root run as nobody: they must reach the temp dirs.
  await chmod(dir, 0o755);
  await mkdir(path.join(dir, 'tmp'), { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  await writeFile(conf, nginxConfig({ dir, listen, replicas }));
  const child = spawn(NGINX, ['-p', dir, '-c', conf, '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errorLog = (): Promise<string> => readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '');
  await withTimeout(
    Promise.race([
      waitFor(() => canConnect(listen), 'nginx to listen', 10_000),
      exited.then(async () => {
        throw new Error(`nginx exited: ${stderr}${await errorLog()}`);
      }),
    ]),
    12_000,
    'nginx to start',
  );
  const pid = child.pid!;
  return {
    pid,
    port: listen,
    url: `http://127.0.0.1:${listen}`,
    accessLog: () => readFile(path.join(dir, 'access.log'), 'utf8').catch(() => ''),
    errorLog,
    stop: async () => {
      const workers = childrenOf(pid);
      // SIGTERM: a fast shutdown, the master ends its workers first.
      killQuietly(pid, 'SIGTERM');
      await withTimeout(exited, 10_000, 'nginx to stop').catch(() => killQuietly(pid, 'SIGKILL'));
      for (const w of workers) if (isAlive(w)) killQuietly(w, 'SIGKILL');
    },
  };
}

export const HAPROXY = process.env.PATCHBAY_HAPROXY ?? '/usr/sbin/haproxy';

/**
 * The HAProxy alternative of docs/deploy.md: a stick table learns each Mcp-Session-Id from the
 * response that carries it; the legacy door's POSTs are routed on the replica tag of ?sessionId=.
 * `checkHost` is a Host header every replica accepts, for the health checks.
 */
export function haproxyConfig(o: { listen: number; replicas: ReplicaAddress[]; checkHost: string }): string {
  return `# Written by test/deploy/lb-harness.ts (the HAProxy config of docs/deploy.md, on loopback ports).
global
  maxconn 4096
defaults
  mode http
  timeout connect 2s
  timeout client 1h
  timeout server 1h
  timeout http-request 30s
  option redispatch
  option http-no-delay
  retries 2
frontend mcp
  bind 127.0.0.1:${o.listen}
  default_backend patchbay
backend patchbay
  balance roundrobin
  stick-table type string len 128 size 100k expire 30m
  stick match req.hdr(mcp-session-id)
  stick store-response res.hdr(mcp-session-id)
${o.replicas.map((r) => `  use-server ${r.id} if { urlp(sessionId) -m beg ${r.id}. }`).join('\n')}
  option httpchk
  http-check send meth GET uri /health/ready ver HTTP/1.1 hdr Host ${o.checkHost}
  http-check expect status 200
${o.replicas.map((r) => `  server ${r.id} 127.0.0.1:${r.port} check inter 1s`).join('\n')}
`;
}

/** Starts HAProxy in the foreground with the config above, by pid. */
export async function startHaproxy(dir: string, listen: number, replicas: ReplicaAddress[], checkHost: string): Promise<LoadBalancer> {
  const conf = path.join(dir, 'haproxy.cfg');
  await writeFile(conf, haproxyConfig({ listen, replicas, checkHost }));
  const child = spawn(HAPROXY, ['-db', '-f', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await withTimeout(
    Promise.race([
      waitFor(() => canConnect(listen), 'haproxy to listen', 10_000),
      exited.then(() => {
        throw new Error(`haproxy exited: ${output}`);
      }),
    ]),
    12_000,
    'haproxy to start',
  );
  const pid = child.pid!;
  return {
    pid,
    port: listen,
    url: `http://127.0.0.1:${listen}`,
    accessLog: () => Promise.resolve(''),
    errorLog: () => Promise.resolve(output),
    stop: async () => {
      killQuietly(pid, 'SIGTERM');
      await withTimeout(exited, 10_000, 'haproxy to stop').catch(() => killQuietly(pid, 'SIGKILL'));
    },
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface Replica {
  id: string;
  pid: number;
  port: number;
  url: string;
  /** stdout so far: with --log-format json, one JSON object per line. */
  stdout(): string;
  stderr(): string;
  /** SIGKILL, as a crash: the replica and the server children it had. */
  kill(): Promise<void>;
  /** SIGTERM and wait (the engine stops its children); SIGKILL what is left. */
  stop(): Promise<void>;
  readonly exited: Promise<void>;
}

/** `patchbay serve --port 0 --replica-id <id> --log-format json` from the build, on a data dir. */
export async function startReplica(o: { id: string; dataDir: string; env: Record<string, string> }): Promise<Replica> {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--replica-id', o.id, '--log-format', 'json', '--data-dir', o.dataDir], {
    env: { ...process.env, PATCHBAY_NO_LOGIN_SHELL: '1', ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await withTimeout(
    Promise.race([
      waitFor(() => /"message":"hub running at (http:\/\/[^"]+)"/.exec(stdout)?.[1], `replica ${o.id} to start`, 30_000),
      exited.then(() => {
        throw new Error(`replica ${o.id} exited: ${stdout}${stderr}`);
      }),
    ]),
    31_000,
    `replica ${o.id} to start`,
  );
  const pid = child.pid!;
  const stopChildren = (kids: number[]): void => {
    for (const k of kids) if (isAlive(k)) killQuietly(k, 'SIGKILL');
  };
  return {
    id: o.id,
    pid,
    port: Number(new URL(url).port),
    url,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    kill: async () => {
      const kids = childrenOf(pid);
      killQuietly(pid, 'SIGKILL');
      await exited;
      stopChildren(kids);
    },
    stop: async () => {
      if (!isAlive(pid)) return;
      const kids = childrenOf(pid);
      killQuietly(pid, 'SIGTERM');
      await withTimeout(exited, 15_000, `replica ${o.id} to stop`).catch(() => killQuietly(pid, 'SIGKILL'));
      stopChildren(kids);
    },
  };
}

/** The parent pid of a process (Linux /proc), or undefined when it is gone. */
export async function parentOf(pid: number): Promise<number | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
}
