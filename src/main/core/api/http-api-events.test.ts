// Flow control on `GET /api/events` (issue 17): a subscriber that stops reading must not make the
// hub keep every API event for it. Real HTTP on loopback (a raw GET whose event stream is left
// unread, so the socket fills), a real engine and child process: the playground's calls of the
// probe fixture's `flood` tool, each progress notification an API event (`playground.serverMessage`)
// of about 16 KiB. Capture off; what the hub holds is measured as the live JS heap + external
// memory after a forced GC, as in test/hub/backpressure.test.ts.
import { describe, expect, it } from 'vitest';
import '../../../../test/helpers/cleanup.js';
import { apiCall } from '../../../../test/helpers/hub-api.js';
import { rawStream } from '../../../../test/helpers/raw-http.js';
import { probeServer } from '../../../../test/helpers/server-entries.js';
import { eventsOf, type SseEvent, type SseReader } from '../../../../test/helpers/sse.js';
import { startHub, type TestHub } from '../../../../test/helpers/test-hub.js';
import { liveBytes, MiB } from '../../../../test/helpers/memory.js';

const BYTES = 16 * 1024;


/** `GET /api/events` on a raw request, read only when the test says so. */
async function subscribe(h: TestHub, resume: { since?: number; lastEventId?: number } = {}): Promise<{ reader: SseReader }> {
  const query = resume.since === undefined ? '' : `?since=${resume.since}`;
  const headers: Record<string, string> = { ...h.authHeader(), Accept: 'text/event-stream' };
  if (resume.lastEventId !== undefined) headers['Last-Event-ID'] = String(resume.lastEventId);
  const { res, reader } = await rawStream({ port: h.port, path: `/api/events${query}`, headers });
  expect(res.statusCode).toBe(200);
  return { reader };
}


/** The first event named `api.ready` and its payload. */
function readyOf(events: SseEvent[]): { cursor: number; complete: boolean } {
  const ready = events.find((e) => e.event === 'api.ready');
  expect(ready).toBeDefined();
  return JSON.parse(ready!.data) as { cursor: number; complete: boolean };
}

/** The events a subscription starts with: its replay, then `api.ready`. */
async function untilReady(reader: SseReader): Promise<SseEvent[]> {
  const items: SseEvent[] = [];
  for (;;) {
    const e = await reader.nextEvent();
    if (!e) throw new Error('the event stream ended before api.ready');
    items.push(e);
    if (e.event === 'api.ready') return items;
  }
}

/** Every cursor but the ready event's, in the order received. */
function cursorsOf(events: SseEvent[]): number[] {
  return events.filter((e) => e.event !== 'api.ready').map((e) => Number(e.id));
}

describe('/api/events flow control', () => {
  it('ends a subscriber that stops reading once it is over its cap, stays bounded, and a resumption is told what it missed', async () => {
    const COUNT = 3072; // 48 MiB of events: far past what the sockets hold plus the 8 MiB cap
    const h = await startHub({ servers: { probe: probeServer() }, engine: { capture: false } });
    const opened = await apiCall<{ session: string }>(h, 'playground.open', { server: 'probe' });
    expect(opened.ok).toBe(true);
    const session = opened.value!.session;
    const before = liveBytes();

    // From here the slow subscriber reads nothing.
    const { reader: slow } = await subscribe(h);
    const flood = await apiCall<{ status: string }>(h, 'playground.request', { session, method: 'tools/call', params: { name: 'flood', arguments: { count: COUNT, bytes: BYTES } }, timeoutMs: 50_000 });
    expect(flood.value?.status).toBe('ok');
    const held = liveBytes() - before;
    // The subscriber's cap (http-api.ts MAX_SUBSCRIBER_BACKLOG_BYTES, 8 MiB), the registry's
    // backlog (api-registry.ts DEFAULT_BACKLOG_BYTES, 4 MiB) and a few socket chunks; without flow
    // control, every event (≥ 48 MiB) and a 2000-event backlog of them (≈ 31 MiB).
    expect(held, `the hub held ${(held / MiB).toFixed(1)} MiB of ${(COUNT * BYTES) / MiB} MiB of events`).toBeLessThan(24 * MiB);

    // The slow subscriber gets what was written, in order, then a comment that says why, then
    // the end of its stream.
    const items = await slow.rest(20_000);
    expect(slow.ended).toBe(true);
    expect(items.at(-1)).toMatchObject({ kind: 'comment', text: expect.stringMatching(/fell \d+ MiB behind/) });
    const cursors = cursorsOf(eventsOf(items));
    expect(cursors.length).toBeGreaterThan(0);
    expect(cursors).toEqual(Array.from({ length: cursors.length }, (_, i) => cursors[0]! + i));
    const resumeFrom = cursors.at(-1)!;

    // It resumes from the last cursor it got: the events it missed were more than the backlog
    // keeps, so it is told to resync, and what is replayed follows on in order up to the newest.
    for (const resume of [{ since: resumeFrom }, { lastEventId: resumeFrom }]) {
      const { reader: again } = await subscribe(h, resume);
      const items = await untilReady(again);
      const ready = readyOf(items);
      expect(ready.complete, JSON.stringify(resume)).toBe(false);
      const replayed = cursorsOf(items);
      expect(replayed.length).toBeGreaterThan(0);
      expect(replayed[0]!).toBeGreaterThan(resumeFrom + 1);
      expect(replayed).toEqual(Array.from({ length: replayed.length }, (_, i) => replayed[0]! + i));
      expect(replayed.at(-1)).toBe(ready.cursor);
      await again.cancel();
    }

    // An EventSource reconnecting by itself repeats its URL's `since` and names the last event it
    // got in Last-Event-ID: it resumes from the later of the two (nothing is replayed twice) and
    // is replayed everything after it, as a live subscriber got it. A small flood's notifications,
    // read live, are what it must get back.
    const { reader: fresh } = await subscribe(h);
    const newest = readyOf(await untilReady(fresh)).cursor;
    const small = await apiCall<{ status: string }>(h, 'playground.request', { session, method: 'tools/call', params: { name: 'flood', arguments: { count: 5, bytes: 64 } } });
    expect(small.value?.status).toBe('ok');
    const { reader: probe } = await subscribe(h);
    const end = readyOf(await untilReady(probe)).cursor;
    await probe.cancel();
    const live: SseEvent[] = [];
    while (live.at(-1)?.id !== String(end)) {
      const e = await fresh.nextEvent();
      if (!e) throw new Error(`the live stream ended before cursor ${end}`);
      live.push(e);
    }
    await fresh.cancel();
    expect(cursorsOf(live)).toEqual(Array.from({ length: end - newest }, (_, i) => newest + 1 + i));
    const floodNotes = live.filter((e) => e.event === 'playground.serverMessage').map((e) => JSON.parse(e.data) as { session: string; message: { method: string; params?: { progress?: number } } });
    expect(floodNotes.map((m) => [m.session, m.message.method, m.message.params?.progress])).toEqual([1, 2, 3, 4, 5].map((n) => [session, 'notifications/progress', n]));

    const lastEventId = Number(live[1]!.id); // it got the first two live events
    const { reader: both } = await subscribe(h, { since: 0, lastEventId });
    const after = await untilReady(both);
    await both.cancel();
    const ready = readyOf(after);
    expect(ready.complete).toBe(true);
    // Everything after the last event it got, nothing skipped: what the live subscriber got (and
    // whatever the engine said since, such as a status change, which is as much the subscriber's).
    expect(ready.cursor).toBeGreaterThanOrEqual(end);
    const replayed = after.filter((e) => e.event !== 'api.ready');
    expect(cursorsOf(replayed)).toEqual(Array.from({ length: ready.cursor - lastEventId }, (_, i) => lastEventId + 1 + i));
    expect(replayed.slice(0, end - lastEventId)).toEqual(live.slice(2));
  }, 60_000);
});
