/**
 * "update available: <version>" on a server's row and page, for servers installed from a registry
 * that now has a newer version (`catalog.outdated`, read from the cached copy), and "Update…",
 * which shows the entry's diff before anything is written.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { ensureOutdated } from '../../app/catalog-commands.js';
import { useCatalog, useServices } from '../../app/services.js';

// The diff viewer loads with the first update looked at.
const UpdateDrawer = lazy(() => import('./update-drawer.js').then((m) => ({ default: m.UpdateDrawer })));

/** Asks once, the first time the Servers screen is shown (the chips then follow config and catalog events). */
export function useOutdated(): void {
  const services = useServices();
  useEffect(() => void ensureOutdated(services), [services]);
}

export function OutdatedChip({ id }: { id: string }) {
  const outdated = useCatalog((s) => s.outdated?.[id]);
  if (!outdated) return null;
  return (
    <span className="chip chip-warn" title={`${outdated.name} ${outdated.installed} is installed; ${outdated.latest} is in the registry`} data-testid="server-outdated">
      update available: {outdated.latest}
    </span>
  );
}

export function UpdateButton({ id }: { id: string }) {
  const outdated = useCatalog((s) => s.outdated?.[id]);
  const [open, setOpen] = useState(false);
  if (!outdated) return null;
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)} data-testid="server-update">
        Update…
      </button>
      {open && (
        <Suspense fallback={null}>
          <UpdateDrawer serverId={id} version={outdated.latest} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
