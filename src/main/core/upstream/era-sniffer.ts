/**
 * A legacy session of a server nobody knows yet to speak the legacy era (`protocol: auto`; stdio,
 * shared or remote alike): the hub does not probe first (a silent legacy server would make every
 * first session wait for the probe's timeout, and a `server/discover` answer says nothing of the
 * legacy side); it sends the client's `initialize` as usual and reads the answer. A result means
 * the server speaks the legacy era (perhaps besides the modern one), and the connection goes on as
 * it is. A refusal that shows a modern-only server (an unsupported-version error naming only
 * modern revisions, SEP-2575, or another error only the modern era has) is reported, and the
 * session is moved, unknowingly, onto the bridge (modern-bridge-upstream.ts), where its initialize
 * is sent again and answered from `server/discover`. An ordinary error tells nothing.
 */
import { isModernVersion } from '../../../shared/protocol.js';
import { isRequest, type JsonRpcMessage, type JsonRpcResponse } from '../protocol/json-rpc.js';
import { isModernError, supportedVersionsOf } from '../protocol/modern.js';
import type { HubAnswer, UpstreamConnection } from './upstream.js';

export type SnifferVerdict = { era: 'legacy' } | { era: 'modern'; versions: string[] };

export class EraSniffer implements UpstreamConnection {
  onmessage: UpstreamConnection['onmessage'];
  onclose: UpstreamConnection['onclose'];
  onevent: UpstreamConnection['onevent'];
  private current: UpstreamConnection;
  private initializeId: string | number | undefined;
  private initialize: JsonRpcMessage | undefined;
  private decided = false;
  private switching = false;
  private held: Array<[JsonRpcMessage, string | undefined]> = [];

  constructor(
    legacy: UpstreamConnection,
    /** Told once what the initialize answer showed. */
    private readonly learned: (verdict: SnifferVerdict) => void,
    /** A bridge to the same server in the modern era, for a session that must move. */
    private readonly bridge: () => Promise<UpstreamConnection>,
  ) {
    this.current = legacy;
    this.wire(legacy);
  }

  get closed(): boolean {
    return this.current.closed;
  }

  get stderrTail(): string | undefined {
    return this.current.stderrTail;
  }

  send(message: JsonRpcMessage, raw?: string): void {
    if (this.switching) {
      this.held.push([message, raw]);
      return;
    }
    if (!this.decided && isRequest(message) && message.method === 'initialize') {
      this.initializeId = message.id;
      this.initialize = message;
    }
    this.current.send(message, raw);
  }

  /** As the connection in use has them: a sniffer that moved onto the bridge cannot be paused. */
  get pause(): (() => void) | undefined {
    const current = this.current;
    return current.pause && (() => current.pause!());
  }

  get resume(): (() => void) | undefined {
    const current = this.current;
    return current.resume && (() => current.resume!());
  }

  close(): Promise<void> {
    return this.current.close();
  }

  private wire(conn: UpstreamConnection): void {
    conn.onmessage = (m, raw, local) => this.fromUpstream(conn, m, raw, local);
    conn.onclose = (info) => {
      if (conn === this.current && !this.switching) this.onclose?.(info);
    };
    conn.onevent = (e) => this.onevent?.(e);
  }

  private fromUpstream(conn: UpstreamConnection, message: JsonRpcMessage, raw: string, local: boolean | HubAnswer): void {
    if (conn !== this.current) return;
    if (!this.decided && !local && !('method' in message) && message.id === this.initializeId) {
      this.decided = true;
      const versions = modernOnlyRefusal(message as JsonRpcResponse);
      if (versions) return void this.moveToBridge(versions);
      if ('result' in message) this.learned({ era: 'legacy' });
    }
    this.onmessage?.(message, raw, local);
  }

  private async moveToBridge(versions: string[]): Promise<void> {
    this.learned({ era: 'modern', versions });
    this.switching = true;
    const legacy = this.current;
    let bridge: UpstreamConnection;
    try {
      bridge = await this.bridge();
    } catch (err) {
      this.switching = false;
      this.onclose?.({ message: `server '${(err as Error).message}'` });
      return;
    }
    this.current = bridge;
    this.wire(bridge);
    void legacy.close();
    this.switching = false;
    bridge.send(this.initialize!);
    for (const [m, raw] of this.held.splice(0)) bridge.send(m, raw);
  }
}

/**
 * The modern revisions a refused initialize names, when it shows a modern-only server: an error
 * whose `supported` list names only modern revisions, or a modern error (a code only the modern
 * era defines) that names none (then: none known, `[]`). A dual-era server answers initialize, and
 * a legacy one never answers it with a modern error.
 */
function modernOnlyRefusal(answer: JsonRpcResponse): string[] | undefined {
  const error = answer.error;
  if (!error) return undefined;
  const supported = supportedVersionsOf(error);
  if (supported === undefined) return isModernError(error) ? [] : undefined;
  return supported.length > 0 && supported.every(isModernVersion) ? supported : undefined;
}
