/**
 * The HTTP details of a client's request, redacted. A session's requests mostly carry the same
 * headers: when the raw method, URL, status and headers equal the previous request's (and the
 * redactor's secrets did not change), the previous redacted object is shared, which saves its
 * redaction, its JSON and its memory. The comparison is on the raw values, so an unchanged
 * request costs a few string compares.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { CaptureHttp } from '../../../shared/api/inspector-contract.js';
import type { Redactor } from './redactor.js';
import { httpRef, type HttpRef } from './stored-event.js';

/** The last client request's details: its raw values and what they became. */
export interface HttpMemo {
  readonly ref: HttpRef;
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly status: number | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly redactorVersion: number;
}

function sameHeaders(a: IncomingHttpHeaders, b: IncomingHttpHeaders): boolean {
  let n = 0;
  for (const name in b) {
    const value = b[name];
    if (value === undefined) continue;
    n++;
    const before = a[name];
    if (before === value) continue;
    if (!Array.isArray(before) || !Array.isArray(value) || before.length !== value.length || before.some((v, i) => v !== value[i])) return false;
  }
  for (const name in a) if (a[name] !== undefined) n--;
  return n === 0;
}

export function clientHttp(memo: HttpMemo | undefined, req: IncomingMessage, status: number | undefined, redactor: Redactor): HttpMemo {
  if (memo && memo.redactorVersion === redactor.version && memo.method === req.method && memo.url === req.url && memo.status === status && sameHeaders(memo.headers, req.headers)) return memo;
  const http: CaptureHttp = { method: req.method ?? 'POST', url: redactor.redact(req.url ?? ''), headers: redactor.redactHeaders(req.headers) };
  if (status !== undefined) http.status = status;
  return { ref: httpRef(http), method: req.method, url: req.url, status, headers: req.headers, redactorVersion: redactor.version };
}
