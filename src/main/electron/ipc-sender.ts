/**
 * Every IPC call is checked for who sent it before anything runs: the main frame of the app's
 * own page, nothing else. A sub-frame (even of our page), a page that navigated elsewhere, or a
 * frame already gone is refused. (VS Code's validatedIpcMain does the same.)
 */
import { isAppUrl } from './app-origin.js';

/** The parts of Electron's WebFrameMain the check reads. */
export interface SenderFrame {
  readonly url: string;
  readonly parent: unknown;
}

export type SenderCheck = { ok: true } | { ok: false; code: 'ipc_forbidden'; message: string };

export function checkSender(frame: SenderFrame | null | undefined): SenderCheck {
  if (!frame) return deny('the sending frame is gone');
  if (frame.parent !== null) return deny('calls from sub-frames are refused');
  if (!isAppUrl(frame.url)) return deny(`calls from ${safeOrigin(frame.url)} are refused; only the app's own page may call`);
  return { ok: true };
}

function deny(message: string): SenderCheck {
  return { ok: false, code: 'ipc_forbidden', message };
}

/** Only the scheme and host of a foreign URL go into a message (a path may carry a token). */
function safeOrigin(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'an unparsable URL';
  }
}
