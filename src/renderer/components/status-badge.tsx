import type { ServerState } from '../../shared/api/servers-contract.js';

const LABELS: Record<ServerState, string> = { running: 'Running', idle: 'Idle', error: 'Error', disabled: 'Disabled' };

/** Text first, colour second: the state is readable without colour vision. */
export function StatusBadge({ state }: { state: ServerState }) {
  return (
    <span className={`badge badge-${state}`} data-testid="server-state">
      <span className="dot" aria-hidden="true" />
      {LABELS[state]}
    </span>
  );
}
