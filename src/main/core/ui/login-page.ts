/**
 * The small server-rendered page shown at /ui/login: how to get in (the link `patchbay serve`
 * printed, or the hub token pasted into a form that POSTs it — never a token in a URL we make).
 * Plain HTML with a nonce'd style; it works before the UI bundle is even built.
 */
export interface LoginPageOptions {
  nonce: string;
  /** Why the person is here again, e.g. a used link. */
  message?: string;
  tokenFile?: string;
  uiBuilt: boolean;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function loginPage(options: LoginPageOptions): string {
  const message = options.message ? `<p class="error" role="alert">${escapeHtml(options.message)}</p>` : '';
  const notBuilt = options.uiBuilt
    ? ''
    : '<p class="error" role="alert">The UI has not been built in this checkout: run <code>npm run build:ui</code>, then reload.</p>';
  const tokenHint = options.tokenFile ? ` It is in <code>${escapeHtml(options.tokenFile)}</code>.` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Log in · Patchbay</title>
<style nonce="${options.nonce}">
  :root { color-scheme: light dark; --bg: #f7f7f8; --fg: #1b1c1f; --muted: #5b5f68; --card: #fff; --border: #d5d7dd; --accent: #2456d6; --error: #b3261e; }
  @media (prefers-color-scheme: dark) { :root { --bg: #16171a; --fg: #e8e9ec; --muted: #a4a8b2; --card: #1f2125; --border: #3a3d44; --accent: #8fb0ff; --error: #ff8a80; } }
  body { margin: 0; font: 15px/1.5 system-ui, sans-serif; background: var(--bg); color: var(--fg); display: grid; place-items: center; min-height: 100vh; }
  main { background: var(--card); border: 1px solid var(--border); border-radius: 10px; padding: 28px 32px; max-width: 34rem; margin: 16px; }
  h1 { font-size: 1.3rem; margin: 0 0 12px; }
  p { color: var(--muted); }
  code { font-family: ui-monospace, monospace; font-size: 0.9em; color: var(--fg); }
  .error { color: var(--error); }
  label { display: block; font-weight: 600; margin: 16px 0 6px; }
  input { width: 100%; box-sizing: border-box; font: inherit; padding: 8px 10px; border-radius: 6px; border: 1px solid var(--border); background: var(--bg); color: var(--fg); }
  button { margin-top: 12px; font: inherit; padding: 8px 16px; border-radius: 6px; border: 0; background: var(--accent); color: var(--card); cursor: pointer; }
  :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
</style>
</head>
<body>
<main>
<h1>Log in to Patchbay</h1>
${message}${notBuilt}
<p>Open the login link that <code>patchbay serve</code> printed when it started (each link works once).
Run <code>patchbay serve --open</code> to have it opened for you.</p>
<form method="post" action="/ui/login">
  <label for="token">Or paste the hub token</label>
  <input id="token" name="token" type="password" autocomplete="off" required aria-describedby="token-hint">
  <p id="token-hint">The token never appears in a URL.${tokenHint}</p>
  <button type="submit">Log in</button>
</form>
</main>
</body>
</html>
`;
}
