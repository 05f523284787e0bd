/**
 * The secret checks' wiring (docs/secret-checks.md): one finder over the secret store's values and
 * the hub token (as the capture's redactor knows them, refreshed with it), a guard per server as
 * its entry says (`secretCheck`, default `warn`), and where a finding goes — the UI's event, the
 * audit trail as a policy line, the log (names and places only, never values).
 */
import type { ServerConfig } from '../../../shared/config-schema.js';
import { secretsContract } from '../../../shared/api/secrets-contract.js';
import type { ApiRegistry } from '../api/api-registry.js';
import { auditClientName } from '../audit/audit-entry.js';
import type { RunningAudit } from '../audit/start-audit.js';
import { SecretFinder } from '../guard/secret-finder.js';
import { guardConnection, guardModern, notice, type GuardDeps, type GuardReport, type SecretCheckMode } from '../guard/secret-guard.js';
import type { Logger } from '../log/logger.js';
import type { Redactor } from '../traffic/redactor.js';
import type { ServerRuntimeDeps } from '../servers/server-runtime.js';

export function secretChecks(o: { redactor: Redactor; audit: RunningAudit; api: ApiRegistry; logger: Logger }): NonNullable<ServerRuntimeDeps['guard']> {
  const finder = new SecretFinder();
  let version = -1;
  // The known values follow the redactor's (the store is re-read every few seconds there).
  const known = (): SecretFinder => {
    if (version !== o.redactor.version) {
      version = o.redactor.version;
      finder.setKnown(o.redactor.valuesOf('store', 'token'));
    }
    return finder;
  };
  const deps: GuardDeps = {
    get finder() {
      return known();
    },
    report: (r: GuardReport) => {
      const at = new Date().toISOString();
      // Named as the call lines name the same client, so a finding and its call read together.
      const client = r.who !== undefined ? auditClientName(r.who) : 'unknown';
      o.logger.warn(`server '${r.server}': ${notice(r, r.findings)} (client ${client})`);
      const { who: _who, ...found } = r;
      o.api.emit(secretsContract, 'secrets.found', { ...found, client, at });
      for (const f of r.findings) {
        o.audit.record({ t: at, kind: 'policy', client, server: r.server, method: r.method, ...(r.target !== undefined ? { target: r.target } : {}), outcome: `secret ${r.action}: ${f.rule === 'stored-secret' ? `stored secret ${f.label}` : f.rule} at ${f.where}` });
      }
    },
    failed: (server, err) => o.logger.warn(`server '${server}': a secret check failed: ${err.message}`),
  };
  const mode = (server: ServerConfig): SecretCheckMode => server.secretCheck ?? 'warn';
  return {
    connection: (connection, serverId, server, who) => guardConnection(connection, serverId, mode(server), deps, who),
    modern: (upstream, serverId, server) => guardModern(upstream, serverId, mode(server), deps),
  };
}
