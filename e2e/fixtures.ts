/**
 * Test fixtures: a real headless engine per test (`node bin/patchbay.js serve --port 0` in its own
 * temp data dir, with the fixture MCP server configured), logged-in pages, and screenshots that
 * land in test-results/screenshots (and in docs/screenshots with PATCHBAY_UPDATE_SCREENSHOTS=1).
 */
import { test as base, expect, type Page } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '..');
export const EVERYTHING_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'everything-server.mjs');
/** A registry URL nothing listens on (the discard port on loopback): the catalog fails at once, offline. */
export const NO_REGISTRY = 'http://127.0.0.1:9';
/** Patchbay's own demo server, as built (`npm run build`). */
export const DEMO_SERVER = path.join(REPO_ROOT, 'dist', 'main', 'demo', 'demo-server.js');

export interface Engine {
  url: string;
  /** The one-time login URL `patchbay serve` printed. */
  loginUrl: string;
  dataDir: string;
  configFile: string;
  /** The hub token as it is in the token file now. */
  token(): Promise<string>;
  /** Everything the process wrote to stderr so far. */
  output(): string;
}

export function everythingEntry(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [EVERYTHING_SERVER], ...extra };
}

/** The demo server as the first run writes it into a fresh config. */
export function demoEntry(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [DEMO_SERVER], demo: true, ...extra };
}

/** `config: null` starts on a fresh data dir (no config file: the first run writes one). */
async function startServe(config: unknown, extraEnv: Record<string, string> = {}): Promise<{ engine: Engine; stop(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'patchbay-e2e-'));
  const configFile = path.join(dataDir, 'config.json');
  if (config !== null) await writeFile(configFile, JSON.stringify(config, null, 2));
  const child: ChildProcess = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'patchbay.js'), 'serve', '--port', '0', '--data-dir', dataDir], {
    // HOME in the temp dir too: the Clients screen then sees (and writes) only this test's client configs.
    // PATCHBAY_REGISTRY_URL: no test reaches the internet, and the palette searches the catalog as
    // people type — a registry on a closed loopback port fails at once (catalog.spec.ts starts a real one).
    env: { ...process.env, HOME: dataDir, XDG_CONFIG_HOME: path.join(dataDir, '.config'), PATCHBAY_NO_LOGIN_SHELL: '1', PATCHBAY_LOG_LEVEL: 'warn', PATCHBAY_REGISTRY_URL: NO_REGISTRY, ...extraEnv },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const started = new Promise<{ url: string; loginUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`patchbay serve did not start within 20s:\n${stderr}`)), 20_000);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /hub running at (http:\/\/\S+)/.exec(stderr)?.[1];
      const loginUrl = /UI: (http:\/\/\S+\/ui\/login\?token=\S+)/.exec(stderr)?.[1];
      if (url && loginUrl) {
        clearTimeout(timer);
        resolve({ url, loginUrl });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`patchbay serve exited with ${code}:\n${stderr}`));
    });
  });
  const { url, loginUrl } = await started;
  const engine: Engine = {
    url,
    loginUrl,
    dataDir,
    configFile,
    token: async () => (await readFile(path.join(dataDir, 'hub-token'), 'utf8')).trim(),
    output: () => stderr,
  };
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  return { engine, stop };
}

interface Fixtures {
  /** Config the engine starts with; override per file with `test.use({ engineConfig })`; null: a fresh data dir. */
  engineConfig: Record<string, unknown> | null;
  /** More environment for `patchbay serve` (e.g. OTEL_* variables); override per file with `test.use({ engineEnv })`. */
  engineEnv: Record<string, string>;
  engine: Engine;
  /** A page logged in through the printed one-time link. */
  ui: Page;
}

export const test = base.extend<Fixtures>({
  // Spinners stand still (the UI honours reduced motion): on two shared cores without a GPU an
  // animation costs the page a style pass per frame, and axe's checks crawl behind it.
  page: async ({ page }, use) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await use(page);
  },
  engineConfig: [{ mcpServers: {} }, { option: true }],
  engineEnv: [{}, { option: true }],
  engine: async ({ engineConfig, engineEnv }, use) => {
    const { engine, stop } = await startServe(engineConfig, engineEnv);
    await use(engine);
    await stop();
  },
  ui: async ({ page, engine }, use) => {
    await page.goto(engine.loginUrl);
    // A config with Patchbay's demo server opens on its playground (the first run).
    await expect(page).toHaveURL(new RegExp(`^${engine.url.replace(/[.]/g, '\\.')}/ui/(#/servers/[^/]+/playground)?$`));
    await use(page);
  },
});

export { expect };

/** Saves a screenshot of the current screen as a test artifact (and for the README on request). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = path.join(REPO_ROOT, 'test-results', 'screenshots');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  if (process.env.PATCHBAY_UPDATE_SCREENSHOTS === '1') {
    const docs = path.join(REPO_ROOT, 'docs', 'screenshots');
    await mkdir(docs, { recursive: true });
    await copyFile(file, path.join(docs, `${name}.png`));
  }
}

/**
 * axe on the current screen, in the light and in the dark theme (the renderer follows
 * `prefers-color-scheme`): no serious or critical violations in either. Leaves the page light.
 * `include`: only this part (a dialog over a screen already checked; axe is slow on 2 shared cores).
 * `exclude`: leave this part out (an MCP App's iframe: its content is the app's, not Patchbay's).
 */
export async function expectAccessible(page: Page, screen: string, include?: string, exclude?: string): Promise<void> {
  try {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      // The theme switch is a media-query change; wait until the page's styles follow it.
      await expect.poll(() => page.evaluate((dark) => matchMedia('(prefers-color-scheme: dark)').matches === dark, colorScheme === 'dark')).toBe(true);
      const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
      if (include) builder.include(include);
      if (exclude) builder.exclude(exclude);
      const results = await builder.analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      const summary = serious
        .map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => `${n.target.join(' ')} — ${n.failureSummary ?? ''}`).join('\n  ')}`)
        .join('\n');
      expect(serious.map((v) => v.id), `axe found serious problems on ${screen} (${colorScheme} theme):\n${summary}`).toEqual([]);
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
}
