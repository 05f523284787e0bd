/** The hub's own part of the API: status and the configured servers. */
import { z } from 'zod';
import { call, event } from './contract.js';

export const serverSummarySchema = z.object({
  id: z.string(),
  url: z.string(),
  kind: z.enum(['stdio', 'remote']),
  disabled: z.boolean(),
  /** Live sessions of this server. */
  sessions: z.number().int(),
  /** Child processes running for it now (spare and shared child included). */
  children: z.number().int(),
});

export const configProblemSchema = z.object({ path: z.string(), message: z.string() });

export const hubStatusSchema = z.object({
  version: z.string(),
  url: z.string(),
  port: z.number().int(),
  auth: z.boolean(),
  configFile: z.string(),
  configProblems: z.array(configProblemSchema),
  sessions: z.number().int(),
  startedAt: z.string(),
  /** Whether stdio servers can be run in a sandbox on this machine, and with what or why not (docs/sandbox.md). */
  sandbox: z.object({ available: z.boolean(), detail: z.string() }).optional(),
});

export const hubContract = {
  'hub.status': call(z.object({}), hubStatusSchema, 'The hub: version, URL, auth, config problems, live sessions'),
  'servers.list': call(z.object({}), z.array(serverSummarySchema), 'Every configured server with its URL and live counts'),
  'config.changed': event(z.object({ problems: z.array(configProblemSchema) }), 'The config file changed on disk (problems empty when valid)'),
} as const;

export type ServerSummary = z.infer<typeof serverSummarySchema>;
export type HubStatus = z.infer<typeof hubStatusSchema>;
