import { describe, expect, it } from 'vitest';
import { DESKTOP_CSP, DESKTOP_RESPONSE_HEADERS } from './csp.js';
import { navigationAllowed } from './navigation-guard.js';
import { mainWindowOptions } from './window-options.js';

describe('window options', () => {
  it('pins every security setting of the window', () => {
    const options = mainWindowOptions({ preload: '/app/dist/preload/preload.cjs', platform: 'linux', icon: '/app/icon.png', devTools: false });
    expect(options.webPreferences).toEqual({
      preload: '/app/dist/preload/preload.cjs',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: false,
    });
    expect(options.show).toBe(false);
    expect(options.icon).toBe('/app/icon.png');
  });

  it('keeps the same settings on every platform and in development', () => {
    const base = mainWindowOptions({ preload: '/p.cjs', platform: 'linux', devTools: false }).webPreferences;
    for (const platform of ['darwin', 'win32'] as const) {
      expect(mainWindowOptions({ preload: '/p.cjs', platform, devTools: false }).webPreferences).toEqual(base);
    }
    const dev = mainWindowOptions({ preload: '/p.cjs', platform: 'linux', devTools: true }).webPreferences;
    expect({ ...dev, devTools: false }).toEqual(base);
    expect(mainWindowOptions({ preload: '/p.cjs', platform: 'darwin', icon: '/i.png', devTools: false }).icon).toBeUndefined();
  });

  it('sends a strict CSP: own scripts and styles, no inline code, no network, no frames', () => {
    const directives = Object.fromEntries(DESKTOP_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(directives).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self' data:",
      'media-src': "'self' data:",
      'font-src': "'self'",
      'connect-src': "'none'",
      'object-src': "'none'",
      'frame-src': "'self'",
      'worker-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(DESKTOP_CSP).not.toMatch(/unsafe-(inline|eval)/);
    expect(DESKTOP_RESPONSE_HEADERS['Content-Security-Policy']).toBe(DESKTOP_CSP);
  });

  it('allows navigation only within the app page', () => {
    expect(navigationAllowed('app://patchbay/index.html#/clients')).toBe(true);
    expect(navigationAllowed('https://example.com/')).toBe(false);
    expect(navigationAllowed('file:///etc/passwd')).toBe(false);
    expect(navigationAllowed('app://elsewhere/index.html')).toBe(false);
    expect(navigationAllowed('http://127.0.0.1:39517/ui/')).toBe(false);
  });
});
