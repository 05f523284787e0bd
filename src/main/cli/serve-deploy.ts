/**
 * What `patchbay serve` takes from a container's environment and mounted files, for replicas
 * behind a load balancer (docs/deploy.md):
 *
 * - `--replica-id ID` / `PATCHBAY_REPLICA_ID`: first in the session ids this replica mints.
 * - `PATCHBAY_CONFIG`: the config file (a mounted ConfigMap), as `--config` gives it.
 * - `PATCHBAY_HUB_TOKEN`, or `--hub-token-file FILE` / `PATCHBAY_HUB_TOKEN_FILE` (a mounted
 *   secret): the hub token every replica must share. Written into `<data dir>/hub-token` (0600)
 *   when that holds another, so the engine, the CLI and a relay in the container all read the
 *   same one; the variable is then removed from this process's environment.
 * - `--secrets-dir DIR` / `PATCHBAY_SECRETS_DIR` (one file per secret, named as the secret: a
 *   Kubernetes Secret or Docker secrets mounted as a directory), and `PATCHBAY_SECRET_<NAME>`
 *   variables: `${secret:NAME}` resolves from them first, then from the data dir's store, which
 *   keeps what the engine writes itself (OAuth tokens). Read when used, never copied to disk.
 * - `PATCHBAY_CLIENT_TOKENS_FILE`: a client-tokens.json (a mounted secret) that replaces the
 *   data dir's copy at start, for replicas that do not share a data dir.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  addLogScrubber,
  dataPaths,
  errCode,
  FileSecretStore,
  scrubSecrets,
  SECRET_NAME_PATTERN,
  SecretStoreError,
  writeFileAtomic,
  type SecretStore,
} from '../core/index.js';
import { REPLICA_ID_PATTERN } from '../../shared/config-schema.js';
import { UsageError, type CliIo, type CliOption, type OptionValues } from './command.js';
import { stringValue } from './parse-args.js';

export const DEPLOY_OPTIONS: CliOption[] = [
  {
    name: 'replica-id',
    type: 'string',
    valueName: 'ID',
    description: 'This replica behind a load balancer: first in the session ids it mints, ID.<random> (or $PATCHBAY_REPLICA_ID; docs/deploy.md)',
  },
  {
    name: 'hub-token-file',
    type: 'string',
    valueName: 'FILE',
    description: 'The hub token shared by every replica, from a mounted secret (or $PATCHBAY_HUB_TOKEN_FILE, or the value in $PATCHBAY_HUB_TOKEN)',
  },
  {
    name: 'secrets-dir',
    type: 'string',
    valueName: 'DIR',
    description: 'Secrets from a mounted directory, one file per secret (or $PATCHBAY_SECRETS_DIR; also $PATCHBAY_SECRET_<NAME>)',
  },
];

/** What the hub token check in home/hub-token.ts accepts: 32 random bytes in base64url or longer. */
const HUB_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43,}$/;

export interface DeployInputs {
  replicaId?: string;
  /** A config file named by `PATCHBAY_CONFIG` (`--config` wins). */
  configFile?: string;
  secrets?: SecretStore;
}

/** Reads the deployment inputs and applies those that live in the data dir (hub token, client tokens). */
export async function deployInputs(io: CliIo, values: OptionValues, commandPath: string, o: { dataDir: string; auth: boolean; configGiven: boolean }): Promise<DeployInputs> {
  const out: DeployInputs = {};
  const env = (name: string): string | undefined => {
    const v = io.env[name];
    return v === undefined || v.trim() === '' ? undefined : v;
  };
  const replicaId = stringValue(values, 'replica-id', commandPath) ?? env('PATCHBAY_REPLICA_ID');
  if (replicaId !== undefined) {
    if (!REPLICA_ID_PATTERN.test(replicaId)) throw new UsageError('the replica id must be 1-63 letters, digits, "_" or "-" (no "."): it is the first part of session ids', commandPath);
    out.replicaId = replicaId;
  }
  const config = env('PATCHBAY_CONFIG');
  if (config !== undefined && !o.configGiven) out.configFile = path.resolve(io.cwd, config);

  const paths = dataPaths(o.dataDir);
  if (o.auth) {
    const token = await hubTokenFromDeploy(io, values, commandPath);
    if (token !== undefined) {
      const current = await readFile(paths.tokenFile, 'utf8').catch(() => '');
      if (current.trim() !== token) await writeFileAtomic(paths.tokenFile, token + '\n', { mode: 0o600 });
    }
  }
  const clientTokens = env('PATCHBAY_CLIENT_TOKENS_FILE');
  if (clientTokens !== undefined) {
    const text = await readMounted(path.resolve(io.cwd, clientTokens), 'PATCHBAY_CLIENT_TOKENS_FILE');
    const current = await readFile(paths.clientTokensFile, 'utf8').catch(() => undefined);
    if (current !== text) await writeFileAtomic(paths.clientTokensFile, text, { mode: 0o600 });
  }

  const dirFlag = stringValue(values, 'secrets-dir', commandPath);
  const dir = dirFlag ?? env('PATCHBAY_SECRETS_DIR');
  const fromEnv = new Map<string, string>();
  for (const [name, value] of Object.entries(io.env)) {
    if (!name.startsWith(SECRET_ENV_PREFIX) || value === undefined || value === '') continue;
    const secret = name.slice(SECRET_ENV_PREFIX.length);
    if (SECRET_NAME_PATTERN.test(secret)) fromEnv.set(secret, value);
  }
  if (dir !== undefined || fromEnv.size > 0) {
    out.secrets = await MountedSecretStore.open(await FileSecretStore.open(paths.secretsFile), dir === undefined ? undefined : path.resolve(io.cwd, dir), fromEnv);
  }
  return out;
}

const SECRET_ENV_PREFIX = 'PATCHBAY_SECRET_';

async function hubTokenFromDeploy(io: CliIo, values: OptionValues, commandPath: string): Promise<string | undefined> {
  const fileFlag = stringValue(values, 'hub-token-file', commandPath);
  const file = fileFlag ?? nonEmpty(io.env.PATCHBAY_HUB_TOKEN_FILE);
  const value = nonEmpty(io.env.PATCHBAY_HUB_TOKEN);
  // Out of this process's environment: nothing it starts should inherit the token.
  if (io.env === process.env) delete process.env.PATCHBAY_HUB_TOKEN;
  let token: string | undefined;
  let source: string;
  if (file !== undefined) {
    token = (await readMounted(path.resolve(io.cwd, file), fileFlag !== undefined ? '--hub-token-file' : 'PATCHBAY_HUB_TOKEN_FILE')).trim();
    source = fileFlag !== undefined ? 'the --hub-token-file' : 'the PATCHBAY_HUB_TOKEN_FILE';
  } else if (value !== undefined) {
    token = value.trim();
    source = 'PATCHBAY_HUB_TOKEN';
  } else {
    return undefined;
  }
  // The value is never repeated: it is a credential.
  if (!HUB_TOKEN_PATTERN.test(token)) throw new UsageError(`${source} must hold a hub token: 43 or more of A-Z a-z 0-9 - _ (32 random bytes in base64url, e.g. from: openssl rand -base64 32 | tr '+/' '-_' | tr -d '=')`, commandPath);
  return token;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v;
}

async function readMounted(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${what} (${file}): ${errCode(err) ?? (err as Error).message}`);
  }
}

/**
 * The data dir's store with read-only secrets in front: `PATCHBAY_SECRET_<NAME>` variables, then
 * the files of a mounted directory (read each time, so a rotated Kubernetes Secret is seen at
 * once). Their values are masked in every log line as the store's are. Writing or deleting a
 * secret that comes from the mount is refused: it would be shadowed by the mount anyway.
 */
export class MountedSecretStore implements SecretStore {
  /** What was read from the mount and the environment, for the log scrubber; and values rotated away, still masked. */
  private readonly known = new Map<string, string>();
  private readonly retired = new Map<string, string>();

  private constructor(
    private readonly base: SecretStore,
    private readonly dir: string | undefined,
    private readonly env: ReadonlyMap<string, string>,
  ) {}

  static async open(base: SecretStore, dir: string | undefined, env: ReadonlyMap<string, string>): Promise<MountedSecretStore> {
    const store = new MountedSecretStore(base, dir, env);
    if (dir !== undefined) {
      // A directory that is not there is a mistake in the deployment, said at start.
      await readdir(dir).catch((err: unknown) => {
        throw new Error(`cannot read the secrets directory ${dir}: ${errCode(err) ?? (err as Error).message}`);
      });
    }
    for (const [name, value] of env) store.known.set(name, value);
    addLogScrubber((text) => scrubSecrets(store.retired, scrubSecrets(store.known, text)));
    for (const name of await store.mountedNames()) await store.mounted(name);
    return store;
  }

  async get(name: string): Promise<string | undefined> {
    return (await this.mounted(name)) ?? this.base.get(name);
  }

  async set(name: string, value: string): Promise<void> {
    if ((await this.mounted(name)) !== undefined) throw this.readOnly(name);
    return this.base.set(name, value);
  }

  async delete(name: string): Promise<boolean> {
    if ((await this.mounted(name)) !== undefined) throw this.readOnly(name);
    return this.base.delete(name);
  }

  async list(): Promise<string[]> {
    return [...new Set([...(await this.base.list()), ...(await this.mountedNames())])].sort();
  }

  private async mounted(name: string): Promise<string | undefined> {
    if (!SECRET_NAME_PATTERN.test(name) || name.startsWith('.')) return undefined;
    const fromEnv = this.env.get(name);
    if (fromEnv !== undefined) return fromEnv;
    if (this.dir === undefined) return undefined;
    let text: string;
    try {
      text = await readFile(path.join(this.dir, name), 'utf8');
    } catch (err) {
      const code = errCode(err);
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return undefined;
      throw err;
    }
    // A file written with a final newline (echo, most editors) means the value without it.
    const value = text.replace(/\r?\n$/, '');
    if (value === '') return undefined;
    const before = this.known.get(name);
    if (before !== undefined && before !== value) this.retired.set(name, before);
    this.known.set(name, value);
    return value;
  }

  private async mountedNames(): Promise<string[]> {
    const names = new Set(this.env.keys());
    if (this.dir !== undefined) {
      // Kubernetes keeps its own `..data` links beside the keys: names starting with '.' are not secrets.
      for (const entry of await readdir(this.dir).catch(() => [] as string[])) if (SECRET_NAME_PATTERN.test(entry) && !entry.startsWith('.')) names.add(entry);
    }
    return [...names];
  }

  private readOnly(name: string): Error {
    return new SecretStoreError('secret_name_invalid', `secret '${name}' comes from ${this.env.has(name) ? `the environment (${SECRET_ENV_PREFIX}${name})` : `the mounted directory ${this.dir ?? ''}`}; change it there`);
  }
}
