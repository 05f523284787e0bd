/**
 * A StreamSink on a node:http response: the session's streams meet HTTP here, framed by the one
 * SSE writer (protocol/sse-writer.ts), which also judges the client's pace.
 */
import type { ServerResponse } from 'node:http';
import { SseWriter } from '../protocol/sse-writer.js';
import type { StreamSink } from './stream-sink.js';

export function sseSink(res: ServerResponse): StreamSink {
  const writer = new SseWriter(res);
  return {
    open: (headers) => writer.open(headers),
    message: (eventId, json) => writer.event(json, eventId),
    onDrain: (listener) => void writer.onDrain(listener),
    get backlog() {
      return writer.backlog;
    },
    stalled: (limits, now) => writer.stalled(limits, now),
    prime: (eventId) => writer.prime(eventId),
    keepAlive: () => writer.comment('keepalive'),
    end: () => writer.end(),
    onClose: (listener) => void res.once('close', listener),
  };
}
