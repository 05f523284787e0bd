/**
 * The doctor's word on sandboxing (issue 25, docs/sandbox.md): whether servers can be sandboxed on
 * this machine (bubblewrap present and allowed to make namespaces; never on macOS or Windows in
 * this version, said plainly), which servers are, and an error for each server that asks for a
 * sandbox that cannot be had — such a server does not start, it is never run unsandboxed.
 */
import { isStdioServer } from '../../../shared/config-schema.js';
import { sandboxSupport } from '../sandbox/sandbox-support.js';
import type { DoctorCheck, DoctorDeps } from './doctor.js';

export async function sandboxChecks(deps: DoctorDeps): Promise<DoctorCheck[]> {
  const support = await sandboxSupport(deps.service.deps.host.platform);
  const sandboxed = Object.entries(deps.service.deps.config.get().mcpServers).filter(([, s]) => !s.disabled && isStdioServer(s) && s.sandbox !== undefined && s.sandbox !== false);
  if (!support.available) {
    if (sandboxed.length === 0) return [{ id: 'sandbox', area: 'servers', status: 'info', title: 'servers cannot be sandboxed here', detail: support.detail }];
    return sandboxed.map(([id]) => ({
      id: `sandbox:${id}`,
      area: 'servers',
      status: 'error',
      title: `server '${id}' is set to run in a sandbox, and none is available here: it will not start`,
      detail: support.detail,
      hint: `Make the sandbox available, or remove "sandbox" from '${id}' to run it with your full rights`,
    }));
  }
  if (sandboxed.length === 0) return [{ id: 'sandbox', area: 'servers', status: 'info', title: `servers can be sandboxed (${support.detail}); none is`, hint: 'Add "sandbox": true to a stdio server\'s entry (docs/sandbox.md)' }];
  return [{ id: 'sandbox', area: 'servers', status: 'ok', title: `sandboxed with ${support.detail}: ${sandboxed.map(([id]) => id).join(', ')}` }];
}
