/**
 * Which protocol eras a server speaks, as the hub learned them (two facts, each on its own: the
 * 2025 era with initialize and sessions, and the sessionless 2026-07-28 era). A chip for the list
 * and a plain-words account for the server's page.
 */
import type { EraFactInfo, ServerEra } from '../../../shared/api/servers-contract.js';

const CHIP: Record<ServerEra['era'], string> = { legacy: '2025', modern: '2026-07-28', both: '2025 + 2026' };

/** One fact in words, saying what the hub saw: `yes: it answered initialize`, `not asked yet`. */
export function eraFactText(fact: EraFactInfo | undefined, pinned: string | undefined): string {
  if (!fact) return 'not asked yet: the hub asks when the first client of that era comes';
  if (fact.how === 'config') return `${fact.speaks ? 'yes' : 'no'}, ${pinned ? `pinned to ${pinned} in the config` : 'set in the config'}`;
  if (fact.how === 'probe') return fact.speaks ? 'yes: it answered a server/discover request' : 'no: it did not answer a server/discover request as a 2026-07-28 server does';
  return fact.speaks ? 'yes: it answered an initialize request' : 'no: it refused initialize, naming only 2026-07-28 revisions';
}

/** What the chip's tooltip says: the facts behind it. */
export function eraSummary(era: ServerEra): string {
  return `2025 (initialize, sessions): ${eraFactText(era.legacy, era.pinned)}. 2026-07-28 (sessionless): ${eraFactText(era.modern, era.pinned)}. Clients of either era reach it; the hub bridges only what the server lacks.`;
}

export function ServerEraChip({ era, testId }: { era: ServerEra; testId: string }) {
  return (
    <span className={`chip${era.era !== 'legacy' ? ' chip-accent' : ''}`} title={eraSummary(era)} data-testid={testId} data-era={era.era}>
      {CHIP[era.era]}
    </span>
  );
}

export function ServerEraFacts({ era }: { era: ServerEra }) {
  return (
    <>
      <ServerEraChip era={era} testId="server-detail-era" />
      <ul className="fact-list small muted" data-testid="server-detail-era-facts">
        <li data-fact="legacy">2025 (initialize, sessions): {eraFactText(era.legacy, era.pinned)}</li>
        <li data-fact="modern">
          2026-07-28 (sessionless): {eraFactText(era.modern, era.pinned)}
          {era.versions?.length ? ` · supports ${era.versions.join(', ')}` : ''}
        </li>
      </ul>
    </>
  );
}
