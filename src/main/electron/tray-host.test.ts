import { describe, expect, it } from 'vitest';
import { closePolicy, detectTrayHost } from './tray-host.js';

describe('tray host (Linux StatusNotifier watcher)', () => {
  it("asks the session bus whether a StatusNotifierWatcher runs, and reads gdbus's answer", async () => {
    const calls: string[][] = [];
    const answer = (out: string) => async (command: string, args: string[]) => (calls.push([command, ...args]), out);
    expect(await detectTrayHost('linux', answer('(true,)\n'))).toBe('present');
    expect(await detectTrayHost('linux', answer('(false,)\n'))).toBe('absent');
    expect(await detectTrayHost('linux', answer('garbage'))).toBe('unknown');
    expect(await detectTrayHost('linux', () => Promise.reject(new Error('no session bus')))).toBe('unknown');
    expect(calls[0]).toEqual(['gdbus', 'call', '--session', '--dest', 'org.freedesktop.DBus', '--object-path', '/org/freedesktop/DBus', '--method', 'org.freedesktop.DBus.NameHasOwner', 'org.kde.StatusNotifierWatcher']);
    expect(await detectTrayHost('darwin', () => Promise.reject(new Error('not asked')))).toBe('present');
  });

  it('minimizes instead of hiding where no tray icon can show (GNOME when unsure)', () => {
    expect(closePolicy('linux', 'absent', {})).toBe('minimize');
    expect(closePolicy('linux', 'present', { XDG_CURRENT_DESKTOP: 'GNOME' })).toBe('hide');
    expect(closePolicy('linux', 'unknown', { XDG_CURRENT_DESKTOP: 'ubuntu:GNOME' })).toBe('minimize');
    expect(closePolicy('linux', 'unknown', { XDG_CURRENT_DESKTOP: 'KDE' })).toBe('hide');
    expect(closePolicy('win32', 'absent', {})).toBe('hide');
  });
});
