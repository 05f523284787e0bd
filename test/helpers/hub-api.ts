/** The engine's API over HTTP (`POST /api/call/<name>`), called as the UI calls it. */
import type { TestHub } from './test-hub.js';

/** An API answer as it comes over the wire. */
export interface ApiAnswer<T = unknown> {
  ok: boolean;
  value?: T;
  code?: string;
  message?: string;
}

/** Calls one API function and returns the `{ ok, … }` body, whatever it says. */
export async function apiCall<T = unknown>(hub: Pick<TestHub, 'url' | 'authHeader'>, name: string, input: unknown = {}): Promise<ApiAnswer<T>> {
  const res = await fetch(`${hub.url}/api/call/${name}`, {
    method: 'POST',
    headers: { ...hub.authHeader(), 'Content-Type': 'application/json' },
    body: JSON.stringify(input),
  });
  return (await res.json()) as ApiAnswer<T>;
}
