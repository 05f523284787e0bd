/**
 * What installing one way of running a server writes and runs (docs/catalog.md, Installing): the
 * config entry, pinned to the version the user saw, with every secret value replaced by a
 * `${secret:<serverId>.<NAME>}` reference and the values to store beside it. Pure: the runtime
 * found on PATH comes in (runtime-check.ts), nothing is written here (catalog-api.ts does that).
 *
 * Patchbay spawns servers without a shell (upstream/child-process.ts), so a value is one argv
 * element whatever it contains; a value that would read as a new flag where a positional argument
 * is expected is still refused (the schema's command-injection warning): a server could take it
 * as an option it never meant to expose.
 */
import type { CatalogPlan } from '../../../shared/api/catalog-contract.js';
import { SERVER_ID_PATTERN, type ServerConfig } from '../../../shared/config-schema.js';
import type { DocArgument, DocInput, DocPackage, DocTransport, ServerDocument } from './catalog-source.js';
import { secretName as storeName, toServerId, uniqueId } from '../config/config-names.js';
import { argumentKey, documentOptions, optionOf, packageUnsupported, remoteUnsupported, runtimeCommand } from './install-inputs.js';

export class PlanError extends Error {
  constructor(
    readonly code: 'option_unknown' | 'option_unsupported' | 'value_invalid',
    message: string,
  ) {
    super(message);
    this.name = 'PlanError';
  }
}

export interface PlanRequest {
  document: ServerDocument;
  /** The registry's URL (provenance on the entry). */
  registry: string;
  /** `package:<i>` or `remote:<i>`; omitted: the first installable option. */
  option?: string;
  values?: Record<string, string>;
  serverId: string;
  /** The command the package runs with here (`podman` when docker is missing); default: its hint or type's. */
  runtime?: string;
}

export interface BuiltPlan extends CatalogPlan {
  option: string;
  /** Secret name → value, for the store only; never in the entry, the preview or an answer. */
  secretValues: Record<string, string>;
}

/** A server id for a name: its last part, lower-cased (`io.github.user/weather` → `weather`), then `weather-2`… when taken (as an import names them). */
export function deriveServerId(name: string, taken: ReadonlySet<string>): string {
  return uniqueId(toServerId((name.split('/').pop() ?? name).toLowerCase()), taken);
}

/** The first option that can be installed. */
export function defaultOption(doc: ServerDocument): string | undefined {
  return documentOptions(doc).find((o) => o.unsupported === undefined)?.id;
}

const SECRET_REF = /^\$\{secret:[A-Za-z0-9_.-]{1,128}\}$/;

interface Fill {
  values: Record<string, string>;
  serverId: string;
  missing: string[];
  secrets: Array<{ name: string; key: string }>;
  secretValues: Record<string, string>;
}

/**
 * A secret store name for an input: `<serverId>.<NAME>` as an import names them (config/config-names.ts),
 * without an argument's leading dashes (`--token` → `token`), kept short enough for a `-2` when two
 * inputs of one plan share a name.
 */
function secretName(fill: Fill, name: string): string {
  const base = storeName(fill.serverId, name.replace(/^-+/, '') || 'value').slice(0, 120);
  let candidate = base;
  for (let n = 2; fill.secrets.some((s) => s.name === candidate); n++) candidate = `${base}-${n}`;
  return candidate;
}

/** The value given for a key, else the document's default; checked against choices and format. */
function given(fill: Fill, key: string, name: string, doc: DocInput): string | undefined {
  const typed = fill.values[key];
  const value = typed !== undefined && typed !== '' ? typed : doc.default;
  if (value === undefined || value === '') return undefined;
  if (doc.choices && doc.choices.length > 0 && !doc.choices.includes(value)) throw new PlanError('value_invalid', `${name} must be one of: ${doc.choices.join(', ')}`);
  if (doc.format === 'number' && !Number.isFinite(Number(value))) throw new PlanError('value_invalid', `${name} must be a number`);
  if (doc.format === 'boolean' && value !== 'true' && value !== 'false') throw new PlanError('value_invalid', `${name} must be true or false`);
  return value;
}

/**
 * One value: asked (the input's own) or a fixed template whose `{var}`s are filled. Undefined
 * when a value is missing (a required one is added to `missing`). Secret values become references;
 * `encode` applies to the others (URL components).
 */
function render(fill: Fill, key: string, name: string, doc: DocInput, secret: boolean, encode: (v: string) => string = (v) => v): string | undefined {
  const isSecret = secret || doc.isSecret === true;
  if (doc.value === undefined) {
    // A reference given for a secret (an update keeping the entry's, or a secret already stored) is kept as it is.
    const typed = fill.values[key];
    if (isSecret && typed !== undefined && SECRET_REF.test(typed)) return typed;
    const value = given(fill, key, name, doc);
    if (value === undefined) {
      if (doc.isRequired === true) fill.missing.push(key);
      return undefined;
    }
    if (!isSecret) return encode(value);
    const store = secretName(fill, name);
    fill.secrets.push({ name: store, key });
    fill.secretValues[store] = value;
    return `\${secret:${store}}`;
  }
  let complete = true;
  const out = doc.value.replace(/\{([^{}]+)\}/g, (whole, variable: string) => {
    const v = doc.variables?.[variable];
    // The schema: a `{name}` without a variable stays as it is.
    if (v === undefined) return whole;
    const filled = render(fill, `${key}/${variable}`, variable, v, isSecret, encode);
    if (filled === undefined) complete = false;
    return filled ?? '';
  });
  return complete ? out : undefined;
}

function argv(fill: Fill, prefix: 'arg' | 'runtime-arg', list: readonly DocArgument[] | undefined): string[] {
  const out: string[] = [];
  (list ?? []).forEach((arg, i) => {
    const key = argumentKey(prefix, arg, i);
    const label = arg.type === 'named' ? (arg.name ?? key) : (arg.valueHint ?? key);
    if (arg.type === 'named' && arg.name && arg.value === undefined && arg.format === 'boolean') {
      // A switch: present when true.
      if (given(fill, key, label, arg) === 'true') out.push(arg.name);
      else if (arg.isRequired === true && given(fill, key, label, arg) === undefined) fill.missing.push(key);
      return;
    }
    const value = render(fill, key, label, arg, false);
    if (value === undefined) return;
    const items = arg.isRepeated === true ? value.split('\n').map((v) => v.trim()).filter(Boolean) : [value];
    for (const item of items) {
      if (arg.type === 'named' && arg.name) out.push(arg.name, item);
      else {
        if (arg.value === undefined && item.startsWith('-')) throw new PlanError('value_invalid', `${label} is a positional argument: a value starting with '-' would be read as an option, so it is refused`);
        out.push(item);
      }
    }
  });
  return out;
}

function envOf(fill: Fill, pkg: DocPackage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const kv of pkg.environmentVariables ?? []) {
    const value = render(fill, `env:${kv.name}`, kv.name, kv, false);
    if (value !== undefined) env[kv.name] = value;
  }
  return env;
}

/** `image:tag` for an OCI package: the tag in the identifier (2025-12-11), else its version; a non-Docker Hub base URL names the registry host. */
function ociImage(pkg: DocPackage): string {
  let image = pkg.identifier;
  const base = pkg.registryBaseUrl ? pkg.registryBaseUrl.replace(/^https?:\/\//, '').replace(/\/+$/, '') : '';
  const first = image.split('/')[0] ?? '';
  if (base && !/(^|\.)docker\.io$/.test(base) && !first.includes('.') && !first.includes(':')) image = `${base}/${image}`;
  const last = image.split('/').pop() ?? '';
  if (!last.includes(':') && !image.includes('@') && pkg.version) image = `${image}:${pkg.version}`;
  return image;
}

function packageEntry(fill: Fill, pkg: DocPackage, runtime: string): { command: string; args: string[]; env: Record<string, string> } {
  const runtimeArgs = argv(fill, 'runtime-arg', pkg.runtimeArguments);
  const packageArgs = argv(fill, 'arg', pkg.packageArguments);
  const env = envOf(fill, pkg);
  const pinned = (sep: string): string => (pkg.version ? `${pkg.identifier}${sep}${pkg.version}` : pkg.identifier);
  switch (runtime) {
    case 'uvx':
      return { command: runtime, args: [...runtimeArgs, pinned('=='), ...packageArgs], env };
    case 'docker':
    case 'podman':
      // The container gets the values from the runtime's environment (`-e NAME`): values stay off the command line.
      return { command: runtime, args: ['run', '-i', '--rm', ...Object.keys(env).flatMap((name) => ['-e', name]), ...runtimeArgs, ociImage(pkg), ...packageArgs], env };
    case 'dnx':
      return { command: runtime, args: [...runtimeArgs, pinned('@'), '--yes', ...packageArgs], env };
    default:
      return { command: 'npx', args: ['-y', ...runtimeArgs, pinned('@'), ...packageArgs], env };
  }
}

function remoteEntry(fill: Fill, remote: DocTransport): { url: string; headers: Record<string, string> } {
  const url = render(fill, 'url', 'url', { value: remote.url ?? '', ...(remote.variables ? { variables: remote.variables } : {}) }, false, encodeURIComponent) ?? remote.url ?? '';
  // `url/<var>` is render's key for a URL variable; the form calls it `url:<var>`.
  const headers: Record<string, string> = {};
  for (const h of remote.headers ?? []) {
    const value = render(fill, `header:${h.name}`, h.name, h, false);
    if (value !== undefined) headers[h.name] = value;
  }
  return { url, headers };
}

/** Shell quoting for the preview only (nothing is run through a shell). */
function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function buildPlan(req: PlanRequest): BuiltPlan {
  const doc = req.document;
  const optionId = req.option ?? defaultOption(doc);
  if (optionId === undefined) throw new PlanError('option_unsupported', `${doc.name} has no package or remote Patchbay can install`);
  const { pkg, remote } = optionOf(doc, optionId);
  if (!pkg && !remote) throw new PlanError('option_unknown', `${doc.name} ${doc.version} has no option '${optionId}'`);
  const unsupported = pkg ? packageUnsupported(pkg) : remoteUnsupported(remote!);
  if (unsupported) throw new PlanError('option_unsupported', unsupported);
  const reference = secretReferenceIn(pkg ?? remote, optionId);
  if (reference) throw new PlanError('value_invalid', `${doc.name} ${doc.version} is refused: its document writes a secret reference itself (${reference}), which would hand one of your stored secrets to this server. A registry entry never names your secrets; you fill them in the form.`);
  // URL variables are keyed `url:<var>` in the form; render looks them up as `url/<var>`.
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.values ?? {})) values[k.startsWith('url:') ? `url/${k.slice(4)}` : k] = v;
  const fill: Fill = { values, serverId: req.serverId, missing: [], secrets: [], secretValues: {} };
  const catalog = { registry: req.registry, name: doc.name, version: doc.version, option: optionId };
  let entry: ServerConfig;
  let preview: string;
  if (pkg) {
    const { command, args, env } = packageEntry(fill, pkg, req.runtime ?? runtimeCommand(pkg) ?? 'npx');
    entry = { command, args, ...(Object.keys(env).length > 0 ? { env } : {}), catalog };
    preview = [...Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`), command, ...args.map(shellQuote)].join(' ');
  } else {
    const { url, headers } = remoteEntry(fill, remote!);
    const transport = remote!.type === 'sse' ? 'sse' : 'streamable-http';
    entry = { type: transport, transport, url, ...(Object.keys(headers).length > 0 ? { headers } : {}), catalog };
    preview = [url, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\n');
  }
  const missing = fill.missing.map((k) => (k.startsWith('url/') ? `url:${k.slice(4)}` : k));
  const secrets = fill.secrets.map((s) => ({ name: s.name, key: s.key.startsWith('url/') ? `url:${s.key.slice(4)}` : s.key }));
  if (!SERVER_ID_PATTERN.test(req.serverId)) throw new PlanError('value_invalid', `'${req.serverId}' is not a server id (letters, digits, '.', '_' and '-', max 64)`);
  return { serverId: req.serverId, entry, preview, secrets, missing: [...new Set(missing)], option: optionId, secretValues: fill.secretValues };
}

/**
 * Where the option's own text (what an install copies: identifiers, versions, fixed values,
 * defaults, choices, URL and header templates — not descriptions) holds a `${secret:…}`
 * reference, if anywhere. Such a reference in a registry document would be resolved like one the
 * user wrote, and send that secret to the server: a document is not trusted with the store.
 */
function secretReferenceIn(option: unknown, path: string): string | undefined {
  if (typeof option === 'string') return option.includes('${secret:') ? path : undefined;
  if (Array.isArray(option)) {
    for (const [i, item] of option.entries()) {
      const found = secretReferenceIn(item, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (option !== null && typeof option === 'object') {
    for (const [key, value] of Object.entries(option)) {
      if (key === 'description' || key === 'placeholder') continue;
      const found = secretReferenceIn(value, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}
