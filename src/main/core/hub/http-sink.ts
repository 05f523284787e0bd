/**
 * StreamSinks on a node:http response: the session's streams meet HTTP here. `sseSink` is a
 * stream from its first byte (a GET stream, a resumption, a batch's answers); `replySink` is the
 * stream of a POST that carries one request, held until its first message (http-reply.ts): the
 * answer alone goes as one `application/json` body, anything before it opens the SSE stream, as
 * does the hold time passing. Either way framed by the one SSE writer (protocol/sse-writer.ts),
 * which also judges the client's pace.
 */
import type { ServerResponse } from 'node:http';
import { SseWriter } from '../protocol/sse-writer.js';
import { HttpReply } from './http-reply.js';
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
    tapWire: (listener) => {
      writer.wire = listener;
    },
  };
}

/** A POST's reply as a StreamSink, and when to stop holding it for an answer that could go as JSON. */
export interface ReplySink extends StreamSink {
  /** Opens the stream after `ms` if nothing was sent by then (with its priming event, P9). */
  holdFor(ms: number): void;
}

/**
 * The sink of a POST that carries exactly one request: the stream ends with that request's answer,
 * so an answer that comes first is the whole reply. The door starts the hold once the request is
 * on its way to the server (a stateless server's child, or a restarted one, starts first), so a
 * slow call's stream opens soon after and stays resumable and kept alive as before.
 */
export function replySink(res: ServerResponse): ReplySink {
  const reply = new HttpReply(res, {});
  return {
    open: (headers) => {
      reply.headers = headers;
    },
    holdFor: (ms) => reply.holdFor(ms),
    prime: (eventId) => reply.primeWith(eventId),
    message: (eventId, json, message) => {
      // `message` is given for every answer the session routes (session-requests.ts); a replay has none.
      if (message !== undefined && reply.held && !('method' in message)) {
        reply.final(json, 200);
        return true;
      }
      return reply.event(json, eventId);
    },
    onDrain: (listener) => void reply.writer.onDrain(listener),
    get backlog() {
      return reply.backlog;
    },
    get started() {
      return !reply.held;
    },
    stalled: (limits, now) => reply.stalled(limits, now),
    keepAlive: () => reply.keepAlive('keepalive'),
    end: () => reply.end(),
    onClose: (listener) => void res.once('close', listener),
    tapWire: (listener) => {
      reply.wire = listener;
    },
  };
}
