// Logging in to the headless UI: the printed one-time link becomes an HttpOnly, SameSite=Strict
// cookie; the link works once; later URLs carry no token; the API refuses cross-site use.
import { expect, screenshot, test } from './fixtures.js';

test('the printed link logs in once, leaves no token in the URL, and sets a strict HttpOnly cookie', async ({ page, engine, browser }) => {
  await page.goto(engine.loginUrl);
  await expect(page).toHaveURL(`${engine.url}/ui/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();
  expect(page.url()).not.toContain('token');
  const cookie = (await page.context().cookies()).find((c) => c.name.startsWith('patchbay_ui_'));
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });

  // The same link a second time, from another browser: refused, with a way in explained.
  const other = await browser.newContext();
  const second = await other.newPage();
  const response = await second.goto(engine.loginUrl);
  expect(response?.status()).toBe(401);
  await expect(second.getByRole('alert')).toContainText('already used');
  await screenshot(second, 'login');
  // Without a login the app redirects to the login page, and the API answers 401.
  await second.goto(`${engine.url}/ui/`);
  await expect(second).toHaveURL(`${engine.url}/ui/login`);
  const api = await second.request.post(`${engine.url}/api/call/hub.status`, { data: {} });
  expect(api.status()).toBe(401);
  await other.close();
});

test('the cookie opens the API only for the UI itself (CSRF-safe by Origin)', async ({ ui, engine }) => {
  const ok = await ui.evaluate(async () => (await fetch('/api/call/hub.status', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status);
  expect(ok).toBe(200);
  // Same cookie, but a POST without an Origin (not a browser page) or from another origin: refused.
  const noOrigin = await ui.request.post(`${engine.url}/api/call/hub.status`, { data: {} });
  expect(noOrigin.status()).toBe(401);
  const foreign = await ui.request.post(`${engine.url}/api/call/hub.status`, { data: {}, headers: { Origin: 'http://127.0.0.1:1' } });
  expect(foreign.status()).toBe(403);
});

test('the login form takes the hub token in a POST body, never in a URL', async ({ page, engine }) => {
  await page.goto(`${engine.url}/ui/login`);
  await page.getByLabel('Or paste the hub token').fill('not-the-token');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toContainText('not the hub token');
  await page.getByLabel('Or paste the hub token').fill(await engine.token());
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(`${engine.url}/ui/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();
});
