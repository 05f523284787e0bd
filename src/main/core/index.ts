/**
 * The engine's face: everything the shells (src/main/cli, src/main/electron, src/main/relay) use
 * from src/main/core, and nothing else. A lint rule (eslint-rules/layers.js) refuses any other
 * import of core from a shell, so this file is the engine's whole public surface.
 *
 * Two kinds of export:
 * - light modules, exported directly: they load in a few milliseconds (no zod, no MCP SDK, no
 *   client-config formats);
 * - heavy parts, behind `load…()` functions that import them on first use. `patchbay relay
 *   <server>` is started by desktop clients for every session and must answer fast: importing
 *   the engine eagerly would add about half a second to each start (measured: the engine's
 *   module graph loads in ~460 ms, the relay's own in ~20 ms). Their types are exported here
 *   directly, which costs nothing at run time.
 *
 * Where things are (docs/architecture.md has the map): protocol/ (wire helpers, the one SSE
 * writer) → upstream/ (stdio, remote) → hub/ (the doors and their intake, 2025 sessions, the
 * 2026-07-28 call runner, the ports) → bridge/ (the era bridges), traffic/ (the capture pipeline:
 * redaction, pairing, the feed of exchanges) → servers/, profiles/, inspector/, oauth/, clients/
 * → engine/ (composition: startEngine, the one place every API domain is registered).
 */

// Logging: a scoped logger, secrets scrubbed from every line.
export { addLogScrubber, createLogger, jsonLogSink, scrubText, setLogLevel, setLogSink, type Logger, type LogRecord } from './log/logger.js';

// The data dir and what sits in it.
export { dataPaths, ensureDataDir, resolveDataDir, type DataDirInputs, type DataPaths } from './home/paths.js';
export { PATCHBAY_VERSION } from './home/version.js';
export { readHubToken } from './home/hub-token.js';
export { ClientTokenStore, type ClientTokenInfo } from './home/client-tokens.js';

// Files.
export { writeFileAtomic } from './fs/atomic-write.js';
export { errCode } from './fs/err-code.js';

// Wire helpers shared with the relay.
export { classify, errorResponse, idKey, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from './protocol/json-rpc.js';
export { LineReader } from './protocol/line-reader.js';
export { SseParser } from './protocol/sse-parser.js';
// The modern era's request headers (2026-07-28 Streamable HTTP), for the relay's own POSTs.
export { modernRequestHeaders, ToolHeaderDeclarations } from './protocol/modern.js';

// The audit trail, read and checked without a running hub (`patchbay audit`).
export { verifyAudit, type AuditLine, type VerifyResult } from './audit/audit-log.js';
export { readAudit, type AuditFilter } from './audit/read-audit.js';

// Secrets.
export { SECRET_NAME_PATTERN, type SecretStore } from './secrets/secret-store.js';
export { FileSecretStore, SecretStoreError } from './secrets/file-secret-store.js';
export { scrubSecrets } from './secrets/scrub-secrets.js';

// Opening a URL in the user's browser (OAuth sign-in).
export { platformOpener, type OpenUrl } from './oauth/openers.js';

// The desktop app serves the built UI itself (app://): the same file rules as /ui.
export { contentTypeOf, resolveInside } from './ui/static-files.js';
export { APP_SANDBOX_PAGE, appSandboxCspFromQuery } from './ui/app-sandbox.js';

// Types of the heavy parts (erased at run time).
export type { EngineOptions, RunningEngine } from './engine/engine.js';
export type { LineOutput, StdioDoor } from './hub/stdio-door.js';
export type { StartAtLogin } from './engine/settings-api.js';
export type { ClientId } from './clients/client-defs.js';
export type { ClientsRuntime } from './clients/clients-runtime.js';
export type { DoctorCheck, DoctorReport } from './clients/doctor.js';
export type { ExportChange, ExportRequest } from './clients/export-plan.js';
export type { RelayLauncher } from './clients/patchbay-entry.js';
export { ApiRegistry } from './api/api-registry.js';

/** The engine: `startEngine()` runs the hub with everything on it (docs/architecture.md). */
export async function loadEngine() {
  const { startEngine } = await import('./engine/engine.js');
  return { startEngine };
}

/** Reading and checking `config.json` outside a running engine (`patchbay config`, `clients`). */
export async function loadConfigTools() {
  const [store, parse, refs] = await Promise.all([import('./config/config-store.js'), import('./config/config-parse.js'), import('./config/secret-refs.js')]);
  return { ConfigStore: store.ConfigStore, parseConfigText: parse.parseConfigText, findSecretRefs: refs.findSecretRefs };
}

/** MCP client configs: the known clients, export/import, doctor. */
export async function loadClients() {
  const [defs, runtime, doctor, fixes, errors, entry] = await Promise.all([
    import('./clients/client-defs.js'),
    import('./clients/clients-runtime.js'),
    import('./clients/doctor.js'),
    import('./clients/doctor-fixes.js'),
    import('./clients/clients-error.js'),
    import('./clients/patchbay-entry.js'),
  ]);
  return {
    CLIENTS: defs.CLIENTS,
    isClientId: defs.isClientId,
    createClientsRuntime: runtime.createClientsRuntime,
    runDoctor: doctor.runDoctor,
    applyFix: fixes.applyFix,
    ClientsError: errors.ClientsError,
    recognise: entry.recognise,
    relayEntry: entry.relayEntry,
  };
}
