/**
 * The palette's catalog entries: what was typed, searched in the registries' cached copy (the
 * engine's typo-tolerant ranking, so these are not filtered again by the palette's own substring
 * match), as "Catalog: <name>" items that open the entry's detail on Add from catalog.
 */
import { useEffect, useState } from 'react';
import type { CatalogResult } from '../../shared/api/catalog-contract.js';
import type { Services } from './services.js';

/** Typing pauses this long before the catalog is asked. */
const DEBOUNCE_MS = 250;
/** Catalog entries shown under the palette's own places. */
export const PALETTE_CATALOG_LIMIT = 6;

export function usePaletteCatalog(services: Services, open: boolean, query: string): CatalogResult[] {
  const [results, setResults] = useState<CatalogResult[]>([]);
  const q = query.trim();
  useEffect(() => {
    // One letter finds everything: wait for two.
    if (!open || q.length < 2) {
      setResults([]);
      return;
    }
    let live = true;
    const t = setTimeout(() => {
      void services.bridge.call('catalog.search', { query: q.slice(0, 500), limit: PALETTE_CATALOG_LIMIT }).then((r) => {
        // A failing registry does not disturb the palette: its places are still there.
        if (live) setResults(r.ok ? r.value.results : []);
      });
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [services, open, q]);
  return results;
}
