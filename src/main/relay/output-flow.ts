/**
 * Flow control from the stdio client back to the hub (issue 17 item 7). When the client stops
 * reading, `stdout.write()` returns false; the relay then stops reading the hub's response
 * streams (TCP pushes back on the hub in turn) until stdout drains. Without it the relay kept
 * every message the hub sent in stdout's buffer: 95 MiB of notifications took it from 51 to
 * 384 MiB. Nothing is dropped: a paused stream is only read later.
 */

/** Where messages for the client go: process.stdout, or anything with `write` in tests. */
export interface RelayOutput {
  write(text: string): unknown;
  on?(event: 'error', listener: (err: Error) => void): unknown;
  off?(event: 'error', listener: (err: Error) => void): unknown;
  /** Without it the output is taken as never full (a test double that keeps everything). */
  once?(event: 'drain', listener: () => void): unknown;
  /** Bytes written that the client has not taken yet (process.stdout has it); read by the stdio door's pace. */
  readonly writableLength?: number;
}

/** What readers of the hub's streams check after each chunk. */
export interface FlowControl {
  /** True while the client's side is full: stop reading until `onDrain`. */
  readonly blocked: boolean;
  /** Runs `resume` once the output has drained. Returns a function that cancels it. */
  onDrain(resume: () => void): () => void;
}

export class OutputFlow implements FlowControl {
  private full = false;
  private readonly waiting = new Set<() => void>();

  constructor(private readonly output: RelayOutput) {}

  get blocked(): boolean {
    return this.full;
  }

  /** Writes a line for the client; notes when the output asks the writer to wait. */
  write(text: string): void {
    const accepted = this.output.write(text);
    if (accepted !== false || this.full || this.output.once === undefined) return;
    this.full = true;
    this.output.once('drain', () => {
      this.full = false;
      const resumes = [...this.waiting];
      this.waiting.clear();
      for (const resume of resumes) resume();
    });
  }

  onDrain(resume: () => void): () => void {
    if (!this.full) {
      resume();
      return () => undefined;
    }
    this.waiting.add(resume);
    return () => this.waiting.delete(resume);
  }
}
