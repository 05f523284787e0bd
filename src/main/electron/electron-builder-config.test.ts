/**
 * electron-builder.yml against electron-builder's own JSON schema (the scheme.json its
 * app-builder-lib ships and validates with), plus what the app expects of the package: icons,
 * tray images, the relay and demo server scripts outside app.asar, the targets the issue names.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { APP_USER_MODEL_ID } from './app-identity.js';
import { appFiles } from './app-paths.js';
import { DEMO_SCRIPT_FOLDER, DEMO_SCRIPT_NAME } from './demo-server-entry.js';
import { RELAY_SCRIPT_NAME } from './relay-launcher.js';
import { allTrayIconNames } from './tray-icons.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
interface BuilderConfig {
  appId: string;
  asar: boolean;
  files: string[];
  extraResources: unknown;
  electronFuses?: Record<string, boolean>;
  mac: { icon: string; target: unknown; identity?: string | null; hardenedRuntime?: boolean };
  win: { icon: string; target: Array<{ target: string }> };
  linux: { icon: string; target: unknown; executableName: string };
  [key: string]: unknown;
}

const config = parse(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

function builderSchema(): object {
  // app-builder-lib is electron-builder's own dependency: resolve it from there.
  const fromBuilder = createRequire(createRequire(import.meta.url).resolve('electron-builder/package.json'));
  return JSON.parse(readFileSync(fromBuilder.resolve('app-builder-lib/scheme.json'), 'utf8')) as object;
}

// The options electron-builder itself compiles scheme.json with (app-builder-lib schemaValidator).
const validate = new Ajv({ allErrors: true, strict: false }).compile(builderSchema());

describe('electron-builder.yml', () => {
  it("validates against electron-builder's own schema", () => {
    const valid = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('the schema check is real: a misspelt option fails it', () => {
    expect(validate({ ...config, asarr: true })).toBe(false);
    expect(validate({ ...config, mac: { ...config.mac, target: 42 } })).toBe(false);
  });

  it('has the app id (the AppUserModelID the app sets on Windows), asar and the targets of every platform', () => {
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z]+)+$/);
    expect(config.appId).toBe(APP_USER_MODEL_ID);
    expect(config.asar).toBe(true);
    expect(config.mac.target).toEqual([{ target: 'dmg', arch: ['x64', 'arm64'] }]);
    expect(config.win.target.map((t) => t.target)).toEqual(['nsis']);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    // A desktop-launched client recognises Patchbay's entries by a name containing "patchbay".
    expect(config.linux.executableName).toMatch(/patchbay/i);
  });

  it('ships the relay and the demo server scripts outside app.asar where the app looks for them', () => {
    expect(config.extraResources).toEqual([
      { from: `dist/relay/${RELAY_SCRIPT_NAME}`, to: `relay/${RELAY_SCRIPT_NAME}` },
      { from: `dist/${DEMO_SCRIPT_FOLDER}/${DEMO_SCRIPT_NAME}`, to: `${DEMO_SCRIPT_FOLDER}/${DEMO_SCRIPT_NAME}` },
    ]);
  });

  it('flips every Electron fuse on purpose (RunAsNode stays on: the relay runs the executable as Node)', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      grantFileProtocolExtraPrivileges: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('signs the macOS app ad hoc (no Developer ID yet), without the hardened runtime an ad-hoc signature cannot carry', () => {
    expect(config.mac.identity).toBe('-');
    expect(config.mac.hardenedRuntime).toBe(false);
  });

  it('packs the files the app loads at run time', () => {
    const files = appFiles('');
    const packed = config.files;
    expect(packed).toContain('package.json');
    expect(packed).toContain('dist/main/electron/*.js');
    expect(packed).toContain(files.preload.replace(/^[/\\]/, ''));
    expect(packed).toContain('dist/renderer/**');
    expect(packed).toContain('assets/tray/**');
    expect(packed).toContain(files.windowIcon.replace(/^[/\\]/, ''));
  });

  it('points at icons that exist, in the sizes the targets need', () => {
    const icon = path.join(ROOT, config.mac.icon);
    expect(config.win.icon).toBe(config.mac.icon);
    const png = readFileSync(icon);
    // PNG header: width and height are big-endian at bytes 16 and 20. electron-builder needs ≥ 512 (mac) / 256 (win).
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
    for (const size of [16, 32, 48, 64, 128, 256, 512]) {
      const file = path.join(ROOT, config.linux.icon, `${size}x${size}.png`);
      expect(existsSync(file), file).toBe(true);
      expect(readFileSync(file).readUInt32BE(16)).toBe(size);
    }
    for (const name of allTrayIconNames()) {
      expect(existsSync(path.join(ROOT, 'assets', 'tray', name)), name).toBe(true);
      expect(existsSync(path.join(ROOT, 'assets', 'tray', name.replace('.png', '@2x.png'))), name).toBe(true);
    }
  });
});
