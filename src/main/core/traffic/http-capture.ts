/**
 * The HTTP details of a client's request, redacted. A session's requests mostly carry the same
 * headers: when the raw method, URL, status and headers equal the previous request's (and the
 * redactor's secrets did not change), the previous redacted object is shared, which saves its
 * redaction and its memory (and the inspector, seeing the same object, its JSON). The comparison
 * is on the parser's flat `rawHeaders` list (an index loop over strings): walking the `headers`
 * object by name cost several times more, and this runs for every request a client sends.
 */
import type { CaptureHttp } from '../../../shared/api/inspector-contract.js';
import type { ClientRequestInfo } from '../hub/observer.js';
import type { Redactor } from './redactor.js';

/** The last client request's details: its raw values and what they became. */
export interface HttpMemo {
  readonly http: CaptureHttp;
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly status: number | undefined;
  readonly rawHeaders: readonly string[];
  readonly redactorVersion: number;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function clientHttp(memo: HttpMemo | undefined, req: ClientRequestInfo, status: number | undefined, redactor: Redactor): HttpMemo {
  if (memo && memo.redactorVersion === redactor.version && memo.status === status && memo.method === req.method && memo.url === req.url && sameList(memo.rawHeaders, req.rawHeaders)) return memo;
  const http: CaptureHttp = { method: req.method ?? 'POST', url: redactor.redact(req.url ?? ''), headers: redactor.redactHeaders(req.headers) };
  if (status !== undefined) http.status = status;
  return { http, method: req.method, url: req.url, status, rawHeaders: req.rawHeaders, redactorVersion: redactor.version };
}
