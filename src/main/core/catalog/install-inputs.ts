/**
 * The install form of a registry document (server.json): one option per package and per remote,
 * each with the fields a person fills in (`CatalogInput`). Pure: no PATH, no store, no network.
 *
 * Keys name where a value goes: `env:NAME`, `header:Name`, `url:var` (a remote's URL template),
 * `arg:--flag` / `arg:<index>` (package arguments), `runtime-arg:--flag` / `runtime-arg:<index>`
 * (runtime arguments, before the package). A `{var}` inside a fixed `value` is a field of its
 * own, keyed `<parent key>/<var>` (`header:Authorization/token`).
 */
import type { CatalogInput, CatalogOption } from '../../../shared/api/catalog-contract.js';
import type { DocArgument, DocInput, DocKeyValue, DocPackage, DocTransport, ServerDocument } from './catalog-source.js';

/** Package registry types Patchbay knows how to run, and the command each runs with by default. */
const RUNTIMES: Record<string, string> = { npm: 'npx', pypi: 'uvx', oci: 'docker', nuget: 'dnx' };
/** Runtime hints honoured when a document names one (anything else falls back to the type's default). */
const KNOWN_RUNTIMES = new Set(['npx', 'uvx', 'docker', 'podman', 'dnx']);

const TRANSPORT_LABEL: Record<string, string> = { stdio: 'stdio', 'streamable-http': 'Streamable HTTP', sse: 'SSE' };

function format(doc: DocInput): CatalogInput['format'] {
  return doc.format === 'number' || doc.format === 'boolean' || doc.format === 'filepath' ? doc.format : 'string';
}

function field(key: string, kind: CatalogInput['kind'], name: string, doc: DocInput, secret: boolean): CatalogInput {
  const input: CatalogInput = { key, kind, name, required: doc.isRequired === true, secret: secret || doc.isSecret === true, format: format(doc) };
  if (doc.description !== undefined) input.description = doc.description;
  if (doc.default !== undefined) input.default = doc.default;
  if (Array.isArray(doc.choices) && doc.choices.length > 0) input.choices = doc.choices.map(String);
  if (doc.placeholder !== undefined) input.placeholder = doc.placeholder;
  return input;
}

/**
 * The fields of one value: none when it is fixed without variables, its variables when it is a
 * fixed template (a secret parent makes them secret: `Bearer {token}` of a secret header), or
 * itself when it is asked.
 */
function fieldsOf(key: string, kind: CatalogInput['kind'], name: string, doc: DocInput): CatalogInput[] {
  if (doc.value === undefined) return [field(key, kind, name, doc, false)];
  return Object.entries(doc.variables ?? {})
    .filter(([variable]) => doc.value!.includes(`{${variable}}`))
    .map(([variable, v]) => field(`${key}/${variable}`, kind, variable, v, doc.isSecret === true));
}

export function argumentKey(prefix: 'arg' | 'runtime-arg', arg: DocArgument, index: number): string {
  return arg.type === 'named' && arg.name ? `${prefix}:${arg.name}` : `${prefix}:${index}`;
}

function argumentFields(prefix: 'arg' | 'runtime-arg', args: readonly DocArgument[] | undefined): CatalogInput[] {
  return (args ?? []).flatMap((arg, i) => fieldsOf(argumentKey(prefix, arg, i), 'argument', arg.type === 'named' ? (arg.name ?? `argument ${i}`) : (arg.valueHint ?? `argument ${i}`), arg));
}

function keyValueFields(prefix: 'env' | 'header', kind: 'env' | 'header', list: readonly DocKeyValue[] | undefined): CatalogInput[] {
  return (list ?? []).filter((kv) => typeof kv.name === 'string').flatMap((kv) => fieldsOf(`${prefix}:${kv.name}`, kind, kv.name, kv));
}

function packageFields(pkg: DocPackage): CatalogInput[] {
  return [...argumentFields('runtime-arg', pkg.runtimeArguments), ...argumentFields('arg', pkg.packageArguments), ...keyValueFields('env', 'env', pkg.environmentVariables)];
}

/** A remote's URL variables (`{tenant}` with a `variables` entry) and its headers. */
function remoteFields(remote: DocTransport): CatalogInput[] {
  const url = remote.url ?? '';
  const vars = Object.entries(remote.variables ?? {})
    .filter(([name]) => url.includes(`{${name}}`))
    .map(([name, doc]) => field(`url:${name}`, 'url', name, doc, false));
  return [...vars, ...keyValueFields('header', 'header', remote.headers)];
}

/** Why a package cannot be installed, when it cannot. */
export function packageUnsupported(pkg: DocPackage): string | undefined {
  if (pkg.registryType === 'mcpb') return 'an MCP bundle (.mcpb) is installed by opening it in a client that supports bundles; Patchbay runs packages from npm, PyPI, NuGet and OCI images';
  if (RUNTIMES[pkg.registryType] === undefined) return `packages of type '${pkg.registryType}' are not supported (npm, pypi, oci and nuget are)`;
  if (pkg.transport?.type !== 'stdio') return `this package serves ${TRANSPORT_LABEL[pkg.transport?.type] ?? pkg.transport?.type} on a local port; Patchbay starts stdio packages (use a remote of the server, or add the URL once it runs)`;
  return undefined;
}

export function remoteUnsupported(remote: DocTransport): string | undefined {
  if (remote.type !== 'streamable-http' && remote.type !== 'sse') return `remote transport '${String(remote.type)}' is not supported`;
  if (typeof remote.url !== 'string' || remote.url === '') return 'the remote has no URL';
  return undefined;
}

/** The package or remote an option id (`package:<i>`, `remote:<i>`) names in a document; neither when it names nothing. */
export function optionOf(doc: ServerDocument, option: string | undefined): { pkg?: DocPackage; remote?: DocTransport } {
  const m = /^(package|remote):(\d+)$/.exec(option ?? '');
  if (!m) return {};
  const i = Number(m[2]);
  const pkg = m[1] === 'package' ? doc.packages?.[i] : undefined;
  const remote = m[1] === 'remote' ? doc.remotes?.[i] : undefined;
  return { ...(pkg ? { pkg } : {}), ...(remote ? { remote } : {}) };
}

/** The command a package runs with: its runtime hint when Patchbay knows it, else its type's. */
export function runtimeCommand(pkg: DocPackage): string | undefined {
  if (pkg.runtimeHint !== undefined && KNOWN_RUNTIMES.has(pkg.runtimeHint)) return pkg.runtimeHint;
  return RUNTIMES[pkg.registryType];
}

/** The options of a document, without the runtime check (catalog-api adds it). */
export function documentOptions(doc: ServerDocument): CatalogOption[] {
  const out: CatalogOption[] = [];
  (doc.packages ?? []).forEach((pkg, i) => {
    const unsupported = packageUnsupported(pkg);
    const transport = pkg.transport?.type === 'streamable-http' || pkg.transport?.type === 'sse' ? pkg.transport.type : 'stdio';
    const option: CatalogOption = {
      id: `package:${i}`,
      kind: 'package',
      label: `${pkg.registryType} ${pkg.identifier}${pkg.version ? ` ${pkg.version}` : ''}`,
      registryType: pkg.registryType,
      transport,
      inputs: unsupported ? [] : packageFields(pkg),
    };
    if (unsupported) option.unsupported = unsupported;
    out.push(option);
  });
  (doc.remotes ?? []).forEach((remote, i) => {
    const unsupported = remoteUnsupported(remote);
    const option: CatalogOption = {
      id: `remote:${i}`,
      kind: 'remote',
      label: `remote ${remote.url ?? '?'} (${TRANSPORT_LABEL[remote.type] ?? remote.type})`,
      transport: remote.type === 'sse' ? 'sse' : 'streamable-http',
      inputs: unsupported ? [] : remoteFields(remote),
    };
    if (unsupported) option.unsupported = unsupported;
    out.push(option);
  });
  return out;
}
