/**
 * One browser sign-in in progress: what the callback needs to finish it (state, PKCE verifier,
 * the discovery it was started from) and a promise every waiting request shares.
 */
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { UpstreamAuthError } from '../upstream/upstream-auth-errors.js';

export interface LoginFlow {
  serverId: string;
  state: string;
  codeVerifier: string;
  authorizationUrl: string;
  /** The scope asked for (space-separated), if any. */
  scope: string | undefined;
  discovery: OAuthDiscoveryState | undefined;
  createdAt: number;
  expiresAt: number;
  settled: boolean;
  /** Resolves when signed in; rejects with the reason the sign-in failed. */
  readonly done: Promise<void>;
  resolve(): void;
  reject(err: Error): void;
}

export function createLoginFlow(init: Omit<LoginFlow, 'settled' | 'done' | 'resolve' | 'reject' | 'createdAt' | 'expiresAt'>, ttlMs: number): LoginFlow {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Nobody may be waiting when a flow fails (a sign-in started from the UI): not an unhandled rejection.
  done.catch(() => undefined);
  const now = Date.now();
  const flow: LoginFlow = {
    ...init,
    createdAt: now,
    expiresAt: now + ttlMs,
    settled: false,
    done,
    resolve: () => {
      if (flow.settled) return;
      flow.settled = true;
      resolve();
    },
    reject: (err) => {
      if (flow.settled) return;
      flow.settled = true;
      reject(err);
    },
  };
  return flow;
}

/** A pending flow that a new request may join instead of opening another browser window. */
export function isJoinable(flow: LoginFlow | undefined, scope: string | undefined, now = Date.now()): boolean {
  if (!flow || flow.settled || flow.expiresAt <= now) return false;
  if (!scope) return true;
  const asked = new Set((flow.scope ?? '').split(' ').filter(Boolean));
  return scope.split(' ').filter(Boolean).every((s) => asked.has(s));
}

/**
 * Waits for a sign-in on behalf of a request, at most `waitMs`: then the request gets an error
 * saying a sign-in is needed and where (the flow stays open for the person to finish).
 */
export async function waitForLogin(flow: LoginFlow, waitMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), waitMs);
  });
  try {
    const outcome = await Promise.race([flow.done.then(() => 'done' as const), waited]);
    if (outcome === 'timeout') {
      throw new UpstreamAuthError(
        'login_required',
        `server '${flow.serverId}' needs you to sign in. A browser window was opened for it; finish signing in there, then try again (sign-in page: ${flow.authorizationUrl})`,
        { authorizationUrl: flow.authorizationUrl },
      );
    }
  } catch (err) {
    if (err instanceof UpstreamAuthError) throw err;
    throw new UpstreamAuthError('login_failed', `signing in to server '${flow.serverId}' failed: ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}
