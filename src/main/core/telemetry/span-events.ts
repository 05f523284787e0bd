/**
 * What a trace shows of a call besides its start and end, as the inspector's timeline shows it:
 * span events for its progress notifications, its `input_required` rounds (2026-07-28), its
 * cancellation, and the server→client requests nested in it (sampling, elicitation, roots).
 *
 * A nested request completes before the call it belongs to, so its event waits here, by the
 * call's exchange id, until the call completes. Bounded: at most MAX_CALLS calls wait (the
 * oldest is forgotten first) and MAX_EVENTS events each; a nested request whose call completed
 * first, or was never traced, is simply not shown.
 */
import type { Attributes } from '@opentelemetry/api';
import { millisToHrTime } from '@opentelemetry/core';
import type { TimedEvent } from '@opentelemetry/sdk-trace';
import type { ObservedExchange } from '../traffic/observed-exchange.js';
import { errorType } from './exchange-attributes.js';

const MAX_CALLS = 512;
const MAX_EVENTS = 64;

function event(name: string, timeMs: number, attributes: Attributes): TimedEvent {
  return { name, time: millisToHrTime(timeMs), attributes, droppedAttributesCount: 0 };
}

/** A server→client request nested in a call, as an event named by its method. */
function nestedEvent(x: ObservedExchange): TimedEvent {
  const attributes: Attributes = {
    'mcp.method.name': x.request.method,
    'jsonrpc.request.id': String(x.request.id),
    'patchbay.status': x.status,
    'patchbay.duration': x.durationMs / 1000,
  };
  const type = errorType(x);
  if (type !== undefined) attributes['error.type'] = type;
  return event(x.request.method, x.startedAt, attributes);
}

/** The span events of calls, nested requests kept until their call completes. */
export class SpanEvents {
  /** Events of nested requests, by the exchange id of the call they belong to (insertion order: oldest first). */
  private readonly waiting = new Map<string, TimedEvent[]>();

  constructor(
    /** Progress messages and cancellation reasons are content: only when the user opted in. */
    private readonly captureContent: boolean,
  ) {}

  /** How many calls have nested events waiting (for tests and the bound). */
  get size(): number {
    return this.waiting.size;
  }

  /** A server→client request that completed: its event waits for the call it was made during. */
  nested(x: ObservedExchange): void {
    const parent = x.parent;
    if (parent === undefined) return;
    let list = this.waiting.get(parent);
    if (list === undefined) {
      if (this.waiting.size >= MAX_CALLS) this.waiting.delete(this.waiting.keys().next().value!);
      list = [];
      this.waiting.set(parent, list);
    }
    if (list.length < MAX_EVENTS) list.push(nestedEvent(x));
  }

  /** A call completed: its events, in time order (the nested ones waiting for it are taken). */
  of(x: ObservedExchange): TimedEvent[] {
    const out = this.waiting.get(x.id) ?? [];
    this.waiting.delete(x.id);
    for (const p of x.progress ?? []) {
      if (out.length >= MAX_EVENTS) break;
      const attributes: Attributes = {};
      if (p.progress !== undefined) attributes['patchbay.progress'] = p.progress;
      if (p.total !== undefined) attributes['patchbay.progress.total'] = p.total;
      if (this.captureContent && p.message !== undefined) attributes['patchbay.progress.message'] = p.message;
      out.push(event('notifications/progress', p.time, attributes));
    }
    const rounds = x.rounds ?? [];
    for (let i = 0; i < rounds.length && out.length < MAX_EVENTS; i++) {
      const round = rounds[i]!;
      out.push(event('input_required', round.time, { 'patchbay.input.round': i + 1, 'patchbay.input.methods': round.requests.map((r) => r.method), 'patchbay.input.retried': round.retrySeq !== undefined }));
    }
    if (x.status === 'cancelled') {
      const attributes: Attributes = {};
      if (this.captureContent && x.error?.message !== undefined) attributes['patchbay.cancel.reason'] = x.error.message;
      out.push(event('notifications/cancelled', x.endedAt, attributes));
    }
    return out.length > 1 ? out.sort((a, b) => a.time[0] - b.time[0] || a.time[1] - b.time[1]) : out;
  }
}
