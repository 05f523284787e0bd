/**
 * Launches the built desktop app (dist/main/electron/main.js) under Node with the Electron test
 * double of fake-electron/ and talks to it: every Electron call the app makes arrives here as a
 * record, in order; commands play the person (tray clicks, closing the window, answering a
 * dialog) and the window's page (app:// requests, IPC calls). Each process is killed by pid after
 * the test if it is still running.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { onCleanup } from '../helpers/cleanup.js';
import { killQuietly } from '../helpers/processes.js';
import { REPO_ROOT } from '../helpers/repo-paths.js';
import { withTimeout } from '../helpers/waits.js';

export const LAUNCH_APP = path.join(REPO_ROOT, 'test', 'desktop', 'fake-electron', 'launch-app.mjs');
/** The app dir whose build is run: the repo, or (to show a test failing on older code) another checkout's. */
export const APP_DIR = process.env.PATCHBAY_DESKTOP_APP_DIR ?? REPO_ROOT;

export interface FakeCall {
  type: 'call';
  seq: number;
  api: string;
  ready: boolean;
  [key: string]: unknown;
}

interface Reply {
  type: 'reply';
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

/** `npm run build` builds the desktop app too (build:electron): fail with the fix, not a spawn error. */
export function requireDesktopBuild(): void {
  for (const file of ['dist/main/electron/main.js', 'dist/preload/preload.cjs', 'dist/relay/patchbay-relay.mjs', 'dist/demo/patchbay-demo-server.mjs', 'dist/renderer/index.html']) {
    if (!existsSync(path.join(APP_DIR, file))) throw new Error(`${file} is missing: run \`npm run build\` first (it runs build:electron)`);
  }
}

export interface LaunchOptions {
  /** App arguments (after the entry), e.g. ['--data-dir', dir, '--hidden']. */
  args: string[];
  /** The HOME of the app (its default folders, autostart entries): a temp dir. */
  home: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

export class DesktopApp {
  readonly calls: FakeCall[] = [];
  readonly output: string[] = [];
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private readonly waiters = new Set<() => void>();
  private readonly replies = new Map<number, (reply: Reply) => void>();
  private nextId = 1;

  constructor(options: LaunchOptions) {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
    delete env.ELECTRON_RUN_AS_NODE;
    delete env.PATCHBAY_HOME;
    Object.assign(env, {
      HOME: options.home,
      XDG_CONFIG_HOME: path.join(options.home, '.config'),
      PATCHBAY_NO_LOGIN_SHELL: '1',
      PATCHBAY_UPDATE_FEED: 'off',
      FAKE_ELECTRON_APP_PATH: APP_DIR,
    });
    for (const [k, v] of Object.entries(options.env ?? {})) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
    this.child = fork(LAUNCH_APP, options.args, { env, cwd: options.cwd ?? options.home, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const pid = this.child.pid;
    onCleanup(() => {
      if (pid !== undefined && this.child.exitCode === null && this.child.signalCode === null) killQuietly(pid, 'SIGKILL');
    });
    for (const stream of [this.child.stdout, this.child.stderr]) stream?.on('data', (chunk: Buffer) => this.output.push(chunk.toString('utf8')));
    this.exit = new Promise((resolve) => this.child.once('exit', (code, signal) => (resolve({ code, signal }), this.wake())));
    this.child.on('message', (message: FakeCall | Reply) => {
      if (message.type === 'call') {
        this.calls.push(message);
        this.wake();
      } else if (message.type === 'reply') {
        this.replies.get(message.id)?.(message);
        this.replies.delete(message.id);
      }
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** The first call (from `after` on) that matches, waiting for it to come. */
  async waitForCall(match: (call: FakeCall) => boolean, what: string, options: { after?: number; timeoutMs?: number } = {}): Promise<FakeCall> {
    const find = (): FakeCall | undefined => this.calls.find((c) => c.seq > (options.after ?? 0) && match(c));
    return withTimeout(
      new Promise<FakeCall>((resolve, reject) => {
        const check = (): void => {
          const found = find();
          if (found) {
            this.waiters.delete(check);
            resolve(found);
          } else if (this.exited) {
            this.waiters.delete(check);
            reject(new Error(`the app exited (${this.child.exitCode ?? this.child.signalCode}) before ${what}\n${this.log()}`));
          }
        };
        this.waiters.add(check);
        check();
      }),
      options.timeoutMs ?? 30_000,
      `${what}\n${this.log()}`,
    );
  }

  /** The last tray menu the app set, as labels. */
  trayLabels(): string[] {
    const menu = this.calls.filter((c) => c.api === 'Tray.setContextMenu').at(-1);
    return ((menu?.items as Array<{ label?: string; type?: string }>) ?? []).map((i) => i.label ?? `(${i.type})`);
  }

  /** Waits until the tray's menu has an item starting with `label`. */
  async waitForTrayItem(label: string, after = 0): Promise<FakeCall> {
    return this.waitForCall((c) => c.api === 'Tray.setContextMenu' && (c.items as Array<{ label?: string }>).some((i) => i.label?.startsWith(label) === true), `a tray item '${label}'`, { after });
  }

  /** The dialog, once shown; then `answer` presses the button with that label. */
  async waitForDialog(title: string | RegExp, after = 0): Promise<{ call: FakeCall; buttons: string[]; answer(label: string): Promise<void> }> {
    const call = await this.waitForCall((c) => c.api === 'dialog.showMessageBox' && matches((c.options as { title?: string }).title ?? '', title), `a dialog '${title}'`, { after });
    const options = call.options as { buttons: string[] };
    return {
      call,
      buttons: options.buttons,
      answer: async (label) => {
        const response = options.buttons.indexOf(label);
        if (response < 0) throw new Error(`no button '${label}' in ${JSON.stringify(options.buttons)}`);
        await this.command('dialog-answer', { dialogId: call.dialogId, response });
      },
    };
  }

  async command<T = unknown>(cmd: string, args: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    const reply = new Promise<Reply>((resolve) => this.replies.set(id, resolve));
    this.child.send({ type: 'command', id, cmd, ...args });
    const answer = await withTimeout(reply, 20_000, `the app's answer to ${cmd}\n${this.log()}`);
    if (!answer.ok) throw new Error(`${cmd}: ${answer.error}`);
    return answer.value as T;
  }

  log(): string {
    return this.output.join('').split('\n').slice(-25).join('\n');
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

function matches(text: string, pattern: string | RegExp): boolean {
  return typeof pattern === 'string' ? text === pattern : pattern.test(text);
}
