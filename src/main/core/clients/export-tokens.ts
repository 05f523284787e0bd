/**
 * Which client token an export writes into a client's URL entries (issue 17). One token per
 * client file: an export reuses the still-valid token already in the file, and only when there is
 * none is a new one minted — at the write, never for a preview (the preview shows a placeholder,
 * masked in the diff like every token). After the write, the file's older tokens are revoked.
 */
import { CLIENT_TOKEN_PREFIX, type ClientTokenStore } from '../home/client-tokens.js';
import type { ClientDef } from './client-defs.js';
import { clientEntries, invalidReason, readClientFile } from './client-file.js';
import type { ClientHost } from './client-host.js';
import { ClientsError } from './clients-error.js';
import type { ExportPlan } from './export-plan.js';
import { recognise, type HubTarget } from './patchbay-entry.js';

/** Stands for the token an export would mint; shaped like one so every format writes it the same way. */
export const TOKEN_PLACEHOLDER = CLIENT_TOKEN_PREFIX + '0'.repeat(43);

/** The bearer tokens of Patchbay's URL entries in a client's file (none when it cannot be read). */
export async function ownTokens(def: ClientDef, file: string, host: ClientHost, hub: HubTarget): Promise<string[]> {
  try {
    const read = await readClientFile(def, file, host);
    if (!read.exists || invalidReason(read)) return [];
    const out: string[] = [];
    for (const { entry } of clientEntries(read)) {
      if (entry.kind !== 'http') continue;
      const token = recognise(entry, hub)?.token;
      if (token !== undefined) out.push(token);
    }
    return out;
  } catch (err) {
    // The plan reads the file again and reports what is wrong with it.
    if (err instanceof ClientsError) return [];
    throw err;
  }
}

/** The client token in this file that can go on being used for it, if any. */
export async function reusableToken(tokens: ClientTokenStore, def: ClientDef, file: string, host: ClientHost, hub: HubTarget): Promise<string | undefined> {
  await tokens.refresh();
  for (const token of await ownTokens(def, file, host, hub)) if (tokens.validFor(token, def.id, file)) return token;
  return undefined;
}

/** True when the plan writes (or keeps) a URL entry, which needs a token. */
export function needsToken(plan: ExportPlan): boolean {
  return plan.changes.some((c) => c.kind === 'http' && (c.action === 'add' || c.action === 'update' || c.action === 'unchanged'));
}
