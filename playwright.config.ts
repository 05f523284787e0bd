// Playwright: the UI in Debian's Chromium against a real headless engine (`node bin/patchbay.js
// serve`, one per test, each with its own data dir — see e2e/fixtures.ts). No browser download:
// scripts/ensure-chromium.sh installs the distribution's package.
import { defineConfig } from '@playwright/test';

const executablePath = process.env.PATCHBAY_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results/playwright',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // Two cores shared with the engine and its fixture servers: one worker keeps timings honest.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
