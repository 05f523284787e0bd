/**
 * OAuth credentials in the secret store (0600 file, or safeStorage in the desktop app):
 *
 * - `oauth.client.<hash>`: a client registration, keyed by issuer and redirect URI (a dynamic
 *   registration names the hub's redirect URI, so another port needs another registration);
 * - `oauth.tokens.<hash>`: the tokens of one MCP server URL, stamped with the issuer that
 *   minted them (a token read back for another issuer is ignored).
 *
 * Values are JSON, validated on the way back in. Every token and client secret is also masked in
 * the logs, whatever line it slips into.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { addLogScrubber, type Logger } from '../log/logger.js';
import type { SecretStore } from '../secrets/secret-store.js';

export interface TokenRecord {
  v: 1;
  serverUrl: string;
  issuer: string;
  tokens: StoredOAuthTokens;
  /** ms since epoch. */
  obtainedAt: number;
  expiresAt?: number;
}

export interface ClientRecord {
  v: 1;
  issuer: string;
  redirectUri: string;
  client: StoredOAuthClientInformation;
}

const tokensSchema = z.looseObject({ access_token: z.string().min(1), token_type: z.string(), refresh_token: z.string().optional(), scope: z.string().optional(), expires_in: z.number().optional() });
const tokenRecordSchema = z.object({
  v: z.literal(1),
  serverUrl: z.string(),
  issuer: z.string(),
  tokens: tokensSchema,
  obtainedAt: z.number(),
  expiresAt: z.number().optional(),
});
const clientRecordSchema = z.object({
  v: z.literal(1),
  issuer: z.string(),
  redirectUri: z.string(),
  client: z.looseObject({ client_id: z.string().min(1), client_secret: z.string().optional() }),
});

/** Values long enough to mask without masking ordinary words. */
const MIN_MASK = 8;
const masked = new Set<string>();
let scrubberInstalled = false;

/** Masks a credential in every later log line. */
export function maskInLogs(value: string | undefined): void {
  if (!value || value.length < MIN_MASK) return;
  masked.add(value);
  if (scrubberInstalled) return;
  scrubberInstalled = true;
  addLogScrubber((text) => {
    let out = text;
    for (const v of masked) if (out.includes(v)) out = out.split(v).join('[oauth-credential]');
    return out;
  });
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 24);
}

export class OAuthTokenStore {
  constructor(
    private readonly secrets: SecretStore,
    private readonly logger: Logger,
  ) {}

  static tokenName(serverUrl: string): string {
    return `oauth.tokens.${digest(serverUrl)}`;
  }

  static clientName(issuer: string, redirectUri: string): string {
    return `oauth.client.${digest(`${issuer}\n${redirectUri}`)}`;
  }

  async loadTokens(serverUrl: string): Promise<TokenRecord | undefined> {
    const value = await this.read(OAuthTokenStore.tokenName(serverUrl), tokenRecordSchema);
    if (!value || value.serverUrl !== serverUrl) return undefined;
    const record = value as TokenRecord;
    maskInLogs(record.tokens.access_token);
    maskInLogs(record.tokens.refresh_token);
    return record;
  }

  async saveTokens(record: TokenRecord): Promise<void> {
    maskInLogs(record.tokens.access_token);
    maskInLogs(record.tokens.refresh_token);
    await this.secrets.set(OAuthTokenStore.tokenName(record.serverUrl), JSON.stringify(record));
  }

  async deleteTokens(serverUrl: string): Promise<boolean> {
    return this.secrets.delete(OAuthTokenStore.tokenName(serverUrl));
  }

  async loadClient(issuer: string, redirectUri: string): Promise<ClientRecord | undefined> {
    const value = await this.read(OAuthTokenStore.clientName(issuer, redirectUri), clientRecordSchema);
    if (!value || value.issuer !== issuer || value.redirectUri !== redirectUri) return undefined;
    maskInLogs(value.client.client_secret);
    return value as ClientRecord;
  }

  async saveClient(record: ClientRecord): Promise<void> {
    maskInLogs(record.client.client_secret);
    await this.secrets.set(OAuthTokenStore.clientName(record.issuer, record.redirectUri), JSON.stringify(record));
  }

  async deleteClient(issuer: string, redirectUri: string): Promise<boolean> {
    return this.secrets.delete(OAuthTokenStore.clientName(issuer, redirectUri));
  }

  private async read<T extends z.ZodType>(name: string, schema: T): Promise<z.output<T> | undefined> {
    const text = await this.secrets.get(name);
    if (text === undefined) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.logger.warn(`secret '${name}' is not valid OAuth data; ignoring it (sign in again to replace it)`);
      return undefined;
    }
    const result = schema.safeParse(parsed);
    if (!result.success) {
      this.logger.warn(`secret '${name}' is not valid OAuth data; ignoring it (sign in again to replace it)`);
      return undefined;
    }
    return result.data;
  }
}
