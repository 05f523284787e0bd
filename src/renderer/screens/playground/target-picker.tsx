/**
 * What a playground talks to: a server (its id) or a profile (`@name`, the profile's aggregated
 * endpoint, as the hub serves it at /mcp/@name). The id is also the playground store's key. A
 * server's playground lives on its page (`#/servers/<id>/playground`), a profile's on the
 * Profiles screen (`#/profiles/<name>/playground`); the picker moves between them.
 */
import { useMemo } from 'react';
import { navigate } from '../../app/router.js';
import { useServers } from '../../app/services.js';
import { useProfileList } from '../profiles/use-profiles.js';

/** The route parts of a target's playground (an item such as `tool:<name>` may follow). */
export function playgroundPath(target: string): string[] {
  return target.startsWith('@') ? ['profiles', target.slice(1), 'playground'] : ['servers', target, 'playground'];
}

/** How a target is named to a person: `echo`, or `profile work`. */
export function targetName(target: string): string {
  return target.startsWith('@') ? `profile ${target.slice(1)}` : target;
}

export function TargetPicker({ target }: { target: string }) {
  const order = useServers((s) => s.order);
  const byId = useServers((s) => s.byId);
  const { list } = useProfileList();
  // Disabled servers have no session to open; the current target stays listed whatever it is.
  const servers = useMemo(() => order.filter((id) => id === target || byId[id]?.status.state !== 'disabled'), [order, byId, target]);
  const profiles = useMemo(() => {
    const names = (list ?? []).map((p) => `@${p.name}`);
    return target.startsWith('@') && !names.includes(target) ? [target, ...names] : names;
  }, [list, target]);
  return (
    <span className="pg-target">
      <label htmlFor="pg-target" className="small muted">Playground of</label>
      <select
        id="pg-target"
        className="input"
        value={target}
        onChange={(e) => navigate(...playgroundPath(e.target.value))}
        data-testid="playground-target"
      >
        <optgroup label="Servers">
          {servers.map((id) => (
            <option key={id} value={id}>{id}</option>
          ))}
        </optgroup>
        {profiles.length > 0 && (
          <optgroup label="Profiles">
            {profiles.map((id) => (
              <option key={id} value={id}>{id}</option>
            ))}
          </optgroup>
        )}
      </select>
    </span>
  );
}
