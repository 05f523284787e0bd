/**
 * A StreamSink on a node:http response: Server-Sent Events framing (PROTOCOL B). The only place
 * the session's streams meet HTTP.
 */
import type { ServerResponse } from 'node:http';
import type { StreamSink } from './stream-sink.js';

export function sseSink(res: ServerResponse): StreamSink {
  return {
    open(headers) {
      res.writeHead(200, {
        ...headers,
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
        // Reverse proxies (nginx) must not buffer a stream.
        'X-Accel-Buffering': 'no',
      });
      res.flushHeaders();
    },
    message(eventId, json) {
      return res.write(`id: ${eventId}\nevent: message\ndata: ${json}\n\n`);
    },
    onDrain(listener) {
      res.once('drain', listener);
    },
    get backlog() {
      return res.writableLength;
    },
    prime(eventId) {
      res.write(`id: ${eventId}\ndata: \n\n`);
    },
    keepAlive() {
      res.write(': keepalive\n\n');
    },
    end() {
      res.end();
    },
    onClose(listener) {
      res.once('close', listener);
    },
  };
}
