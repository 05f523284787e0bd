import { describe, expect, it } from 'vitest';
import { checkSender } from './ipc-sender.js';

const top = { parent: null };

describe('IPC sender check', () => {
  it("accepts the main frame of the app's page", () => {
    expect(checkSender({ ...top, url: 'app://patchbay/index.html' })).toEqual({ ok: true });
    expect(checkSender({ ...top, url: 'app://patchbay/index.html#/sessions/abc' })).toEqual({ ok: true });
  });

  it('rejects a sub-frame, even one on our own origin', () => {
    const parent = { ...top, url: 'app://patchbay/index.html' };
    const result = checkSender({ url: 'app://patchbay/index.html', parent });
    expect(result).toMatchObject({ ok: false, code: 'ipc_forbidden', message: expect.stringContaining('sub-frames') });
  });

  it('rejects a foreign URL in the main frame', () => {
    for (const url of ['https://evil.example/page?token=secret', 'http://127.0.0.1:39517/ui/', 'file:///home/me/x.html', 'app://other/index.html', 'app://user:pw@patchbay/index.html', 'not a url']) {
      const result = checkSender({ ...top, url });
      expect(result.ok, url).toBe(false);
      // The message names at most the origin: a foreign URL's path may carry a secret.
      if (!result.ok) expect(result.message).not.toContain('secret');
    }
  });

  it('rejects a frame that is gone', () => {
    expect(checkSender(null).ok).toBe(false);
    expect(checkSender(undefined).ok).toBe(false);
  });
});
