/**
 * A registry entry as a search result (catalog-contract.ts `CatalogResult`): the fields a list
 * shows, the namespace's kind (how far its owner was checked by the registry) and the ids it is
 * installed as.
 */
import type { CatalogResult } from '../../../shared/api/catalog-contract.js';
import type { RegistryEntry } from './catalog-source.js';
import { updatedAt } from './server-document.js';

/** `io.github.user/x` → GitHub account `user`; `com.example/x` → domain `example.com`. */
function namespaceOf(name: string): CatalogResult['namespace'] {
  const ns = name.split('/')[0] ?? '';
  const parts = ns.split('.');
  if (parts[0] === 'io' && parts[1] === 'github' && parts.length >= 3) return { kind: 'github', owner: parts.slice(2).join('.') };
  if (parts.length >= 2) return { kind: 'domain', owner: [...parts].reverse().join('.') };
  return { kind: 'other', owner: ns };
}

export function catalogResult(entry: RegistryEntry, installed: string[]): CatalogResult {
  const doc = entry.document;
  const result: CatalogResult = {
    name: doc.name,
    description: typeof doc.description === 'string' ? doc.description : '',
    version: doc.version,
    registry: entry.registry,
    namespace: namespaceOf(doc.name),
    packageTypes: [...new Set((doc.packages ?? []).map((p) => p.registryType))],
    remote: (doc.remotes ?? []).length > 0,
    installed,
  };
  if (doc.title !== undefined) result.title = doc.title;
  if (doc.repository?.url) result.repositoryUrl = doc.repository.url;
  if (doc.websiteUrl) result.websiteUrl = doc.websiteUrl;
  const updated = updatedAt(entry);
  if (updated) result.updatedAt = updated;
  return result;
}
