/**
 * How fresh a registry's copy is, in one line ("official · 1,234 servers · updated 5 min ago"),
 * and the namespace's trust signal ("GitHub: user", checked by the registry).
 */
import type { CatalogRegistry, CatalogResult } from '../../../shared/api/catalog-contract.js';
import { relativeTime } from '../../components/format.js';

export function freshnessLine(r: CatalogRegistry, now = Date.now()): string {
  const count = `${r.count.toLocaleString('en-US')} server${r.count === 1 ? '' : 's'}`;
  const parts = [r.label, count];
  if (r.source === 'snapshot') parts.push(r.error ? 'offline — snapshot shipped with Patchbay' : 'snapshot shipped with Patchbay');
  else if (r.source === 'none') parts.push(r.error ? 'offline — no copy yet' : 'not fetched yet');
  else if (r.error) parts.push(`offline — last copy from ${r.fetchedAt ? relativeTime(r.fetchedAt, now) : 'an earlier run'}`);
  else parts.push(r.fetchedAt ? `updated ${relativeTime(r.fetchedAt, now)}` : 'updated');
  return parts.join(' · ');
}

/** "GitHub: user" (the registry checked the account), "domain: example.com", or the name's own prefix. */
export function namespaceText(ns: CatalogResult['namespace']): { text: string; verified: boolean; why: string } {
  if (ns.kind === 'github') return { text: `GitHub: ${ns.owner}`, verified: true, why: `The registry let only the GitHub account ${ns.owner} publish under io.github.${ns.owner}/` };
  if (ns.kind === 'domain') return { text: `domain: ${ns.owner}`, verified: true, why: `The registry checked that the publisher controls ${ns.owner} (DNS or HTTP)` };
  return { text: ns.owner || 'unverified namespace', verified: false, why: 'A namespace the registry did not verify' };
}

/** Package registries and remote, as short tags: "npm", "pypi", "remote". */
export function runsAs(r: Pick<CatalogResult, 'packageTypes' | 'remote'>): string[] {
  return [...r.packageTypes, ...(r.remote ? ['remote'] : [])];
}

/** A registry's label for a result, when more than one registry is configured. */
export function registryLabel(registries: readonly CatalogRegistry[] | undefined, url: string): string | undefined {
  if (!registries || registries.length < 2) return undefined;
  return registries.find((r) => r.url === url)?.label ?? url;
}
