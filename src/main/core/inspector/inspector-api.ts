/** The inspector's API handlers (src/shared/api/inspector-contract.ts), registered with the engine's registry. */
import type { inspectorContract } from '../../../shared/api/inspector-contract.js';
import type { Handlers } from '../api/api-registry.js';
import type { Hub } from '../hub/hub-server.js';
import { sessionHar, sessionJsonl } from './export-formats.js';
import { listHistoryFiles } from './history-read.js';
import type { Inspector } from './inspector.js';
import { InspectorQueries } from './inspector-queries.js';
import { replayExchange } from './replay.js';

export interface InspectorApiDeps {
  inspector: Inspector;
  hub: Hub;
  hubUrl: string;
  version: string;
}

function fileStem(server: string, session: string): string {
  return `patchbay-${server.replace(/[^A-Za-z0-9_.-]/g, '_')}-${session}`;
}

export function inspectorHandlers(deps: InspectorApiDeps): Handlers<typeof inspectorContract> {
  const { inspector } = deps;
  const queries = new InspectorQueries(inspector);
  return {
    'inspector.status': async () => {
      // Queued items are processed in batches: take them in first, so the cursor is current.
      inspector.flush();
      const files = inspector.writer ? await listHistoryFiles(inspector.historyDir) : [];
      const { limits, memory } = inspector;
      return {
        enabled: inspector.enabled,
        cursor: inspector.lastSeq,
        queue: { length: inspector.queue.length, max: inspector.queue.max },
        dropped: { queue: inspector.queue.dropped, history: inspector.writer?.dropped ?? 0 },
        memory: { sessions: memory.sessions.size, events: memory.all.length, bytes: memory.bytes, maxEvents: limits.maxEvents, maxBytes: limits.maxMemoryBytes, maxEventsPerSession: limits.maxEventsPerSession },
        history: {
          enabled: inspector.writer !== undefined,
          dir: inspector.historyDir,
          files: files.length,
          bytes: files.reduce((n, f) => n + f.size, 0),
          maxBytes: limits.historyMaxBytes,
          maxAgeDays: limits.historyMaxAgeMs / 86_400_000,
        },
      };
    },
    'inspector.sessions.list': (input) => queries.listSessions(input),
    'inspector.sessions.get': (input) => queries.session(input.session),
    'inspector.exchanges.list': (input) => queries.exchanges(input),
    'inspector.events.list': (input) => queries.events(input),
    'inspector.search': (input) => queries.search(input),
    'inspector.stats': (input) => {
      inspector.flush();
      return { since: inspector.stats.since, servers: inspector.stats.list(input.server) };
    },
    'inspector.export': async ({ session, format }) => {
      const summary = await queries.session(session);
      const events = await queries.sessionEvents(session);
      const stem = fileStem(summary.server, summary.id);
      if (format === 'jsonl') return { fileName: `${stem}.jsonl`, mediaType: 'application/x-ndjson', content: sessionJsonl(summary, events) };
      const exchanges = [];
      for (let after: number | undefined; ; ) {
        const page = await queries.exchanges({ session, after, limit: 1000, full: true });
        exchanges.push(...page.exchanges);
        if (page.next === undefined) break;
        after = page.next;
      }
      return { fileName: `${stem}.har`, mediaType: 'application/json', content: sessionHar(summary, exchanges, events, deps.hubUrl, deps.version) };
    },
    'inspector.replay': (input) => replayExchange({ inspector, queries, hub: deps.hub, version: deps.version }, input),
    'inspector.raw.get': ({ session }) => {
      inspector.flush();
      return inspector.raw.get(session, inspector.recordingRaw);
    },
    'inspector.raw.set': ({ enabled }) => {
      inspector.recordRaw(enabled);
      return { enabled: inspector.recordingRaw, maxBytesPerSession: inspector.raw.maxBytesPerSession };
    },
  };
}
