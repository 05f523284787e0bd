/**
 * A StreamSink that stays in the process: what the session writes to one of its streams is
 * handed to a function as parsed JSON-RPC messages instead of SSE frames on a socket. The
 * playground gives each request a sink of its own (so whatever arrives on it belongs to that
 * request: its answer, its progress, a server request made while handling it) and one to the
 * session's standalone stream.
 */
import type { StreamSink } from '../hub/stream-sink.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.js';

export class LocalSink implements StreamSink {
  /** The playground never resumes a stream: nothing is kept for it. */
  readonly resumable = false;
  private readonly closeListeners: Array<() => void> = [];
  private ended = false;

  constructor(
    private readonly onMessage: (message: JsonRpcMessage) => void,
    private readonly onEnd: () => void = () => {},
  ) {}

  open(): void {}

  message(_eventId: string, json: string): void {
    if (this.ended) return;
    let message: JsonRpcMessage;
    try {
      message = JSON.parse(json) as JsonRpcMessage;
    } catch {
      // The session writes what the server sent; a line that is not JSON was never routed here.
      return;
    }
    this.onMessage(message);
  }

  prime(): void {}

  keepAlive(): void {}

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd();
  }

  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  /** The consumer went away (the playground session is closing): the stream detaches. */
  detach(): void {
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
