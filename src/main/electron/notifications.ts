/**
 * Native notifications for what needs a person: a server that starts failing (once per
 * failure, not on every status sample) and a remote server that needs an OAuth sign-in.
 * The policy is pure; main.ts shows what it returns with Electron's Notification.
 */
import type { ApiEvent } from '../../shared/api/contract.js';
import type { ServerStatus } from '../../shared/api/servers-contract.js';

export interface DesktopNotice {
  title: string;
  body: string;
  /** What a click does: open the window on a route, or open a URL the app produced in the browser. */
  onClick: { kind: 'window'; route: string } | { kind: 'browser'; url: string };
}

const MAX_BODY_CHARS = 200;

export class NotificationPolicy {
  /** Servers whose current failure was already announced. */
  private readonly failing = new Set<string>();

  /** The notice an engine event calls for, if any. */
  noticeFor(event: ApiEvent): DesktopNotice | undefined {
    if (event.channel === 'servers.status') return this.serverStatus(event.payload as ServerStatus);
    if (event.channel === 'oauth.loginNeeded') {
      const { server, authorizationUrl } = event.payload as { server: string; authorizationUrl: string };
      return {
        title: `Sign-in needed for '${server}'`,
        body: 'The sign-in page opened in your browser. Click here to open it again.',
        onClick: { kind: 'browser', url: authorizationUrl },
      };
    }
    return undefined;
  }

  private serverStatus(status: ServerStatus): DesktopNotice | undefined {
    if (status.state !== 'error') {
      this.failing.delete(status.id);
      return undefined;
    }
    if (this.failing.has(status.id)) return undefined;
    this.failing.add(status.id);
    const message = status.lastError?.message ?? 'it stopped working';
    return {
      title: `Server '${status.id}' failed`,
      body: message.length > MAX_BODY_CHARS ? `${message.slice(0, MAX_BODY_CHARS - 1)}…` : message,
      onClick: { kind: 'window', route: `servers/${encodeURIComponent(status.id)}` },
    };
  }
}

/** The one-time hint when the window is closed and the app runs on (desktop-hints.ts keeps it one-time). */
export function closeHintNotice(platform: NodeJS.Platform, how: 'hide' | 'minimize'): DesktopNotice {
  if (how === 'minimize') {
    return {
      title: 'Patchbay is still running',
      body: 'This desktop shows no tray icons, so closing the window minimizes it: the hub keeps serving your clients. Quit from the window when you want it to stop.',
      onClick: { kind: 'window', route: 'servers' },
    };
  }
  const where = platform === 'darwin' ? 'its icon in the menu bar' : platform === 'win32' ? 'its icon in the notification area (^ beside the clock)' : 'its tray icon';
  return {
    title: 'Patchbay is still running',
    body: `The hub keeps serving your MCP clients. Open Patchbay or quit it from ${where}.`,
    onClick: { kind: 'window', route: 'servers' },
  };
}

/** A newer release: the notification opens its page; Patchbay never installs anything itself. */
export function updateAvailableNotice(release: { version: string; url: string }): DesktopNotice {
  return {
    title: `Patchbay ${release.version} is available`,
    body: 'Click to open the release page and download it. Patchbay does not update itself.',
    onClick: { kind: 'browser', url: release.url },
  };
}
