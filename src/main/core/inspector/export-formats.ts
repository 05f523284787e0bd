/**
 * Exports of one session: JSONL (its summary, then every event, in the history file format) and
 * HAR 1.2 (one entry per exchange, for HAR viewers; Patchbay's own fields under `_patchbay`).
 * Both are built from already-redacted events. The HAR is typed with `@types/har-format` (the
 * HAR 1.2 spec as types), so a field a viewer needs cannot go missing unnoticed.
 */
import type { Entry, Header, Log } from 'har-format';
import type { CaptureEvent, Exchange, InspectorSession } from '../../../shared/api/inspector-contract.js';
import { sessionLine } from './history-read.js';

export function sessionJsonl(summary: InspectorSession, events: CaptureEvent[]): string {
  return [sessionLine(summary), ...events.map((e) => JSON.stringify(e))].join('\n') + '\n';
}

/** HAR 1.2 allows custom fields starting with `_` anywhere; the types list them on entries only. */
interface PatchbayHar {
  log: Log & { _patchbay: { session: InspectorSession } };
}

function headerList(headers: Record<string, string> | undefined): Header[] {
  return Object.entries(headers ?? {}).map(([name, value]) => ({ name, value }));
}

function text(message: unknown): string {
  if (message === undefined) return '';
  return typeof message === 'string' ? message : JSON.stringify(message);
}

export function sessionHar(summary: InspectorSession, exchanges: Exchange[], events: CaptureEvent[], hubUrl: string, version: string): string {
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  const url = `${hubUrl}/mcp/${encodeURIComponent(summary.server)}`;
  const entries = exchanges.map((x): Entry => {
    const requestEvent = bySeq.get(x.requestSeq);
    const responseEvent = x.responseSeq === undefined ? undefined : bySeq.get(x.responseSeq);
    const body = text(x.request);
    const answer = text(x.response);
    const wait = x.latencyMs ?? 0;
    const { request: _request, response: _response, ...meta } = x;
    return {
      startedDateTime: new Date(x.startedAt).toISOString(),
      time: wait,
      request: {
        method: requestEvent?.http?.method ?? 'POST',
        url: x.requester === 'client' ? url : `${url}#${x.requester}-request`,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: headerList(requestEvent?.http?.headers),
        queryString: [],
        postData: { mimeType: 'application/json', text: body },
        headersSize: -1,
        bodySize: requestEvent?.size ?? Buffer.byteLength(body),
      },
      response: {
        status: x.response === undefined ? 0 : (responseEvent?.http?.status ?? 200),
        statusText: x.response === undefined ? 'no response' : 'OK',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: headerList(responseEvent?.http?.responseHeaders),
        content: { size: responseEvent?.size ?? Buffer.byteLength(answer), mimeType: 'application/json', text: answer },
        redirectURL: '',
        headersSize: -1,
        bodySize: responseEvent?.size ?? -1,
      },
      cache: {},
      timings: { send: 0, wait, receive: 0 },
      _patchbay: meta,
    };
  });
  const har: PatchbayHar = {
    log: {
      version: '1.2',
      creator: { name: 'patchbay', version },
      comment: `MCP session ${summary.id} of server '${summary.server}'${summary.client ? ` with client '${summary.client.name}'` : ''}; secrets redacted`,
      pages: [],
      entries,
      _patchbay: { session: summary },
    },
  };
  return JSON.stringify(har, null, 2) + '\n';
}
