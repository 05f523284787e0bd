/**
 * Secrets (API keys) as the UI manages them. Values go in and never come back: a listing has
 * names, where each is used, and at most the last four characters of a long value as a hint.
 */
import { z } from 'zod';
import { call, event } from './contract.js';

/** Same rule as the secret store's names: what `${secret:NAME}` can reference. */
export const secretNameSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'use letters, digits, "_", "-" and "." (max 128)');

export const secretUseSchema = z.object({ serverId: z.string(), path: z.string() });

export const secretInfoSchema = z.object({
  name: z.string(),
  /** `…abcd` for values of 16 characters or more; absent for shorter ones (too revealing). */
  hint: z.string().optional(),
  usedBy: z.array(secretUseSchema),
});

export const secretsListSchema = z.object({
  secrets: z.array(secretInfoSchema),
  /** Referenced by a server (`${secret:NAME}`) but not stored: that server cannot start. */
  missing: z.array(z.object({ name: z.string(), usedBy: z.array(secretUseSchema) })),
});

/** What a secret check found in a server's traffic (docs/secret-checks.md): names and places, never values. */
export const secretFoundSchema = z.object({
  server: z.string(),
  direction: z.enum(['request', 'result']),
  method: z.string(),
  target: z.string().optional(),
  client: z.string().optional(),
  action: z.enum(['warned', 'masked', 'blocked']),
  findings: z.array(z.object({ rule: z.string(), label: z.string(), where: z.string(), encoding: z.enum(['plain', 'base64', 'url']) })),
  /** ISO time. */
  at: z.string(),
});

export const secretsContract = {
  'secrets.list': call(z.object({}), secretsListSchema, 'Secret names, where each is used, and the missing ones (never values)'),
  'secrets.set': call(
    z.object({ name: secretNameSchema, value: z.string().min(1, 'the value is empty').max(64 * 1024) }),
    z.object({ name: z.string(), created: z.boolean() }),
    'Store or replace a secret value (write-only)',
  ),
  'secrets.delete': call(z.object({ name: z.string() }), z.object({ deleted: z.boolean() }), 'Delete a secret'),
  'secrets.changed': event(z.object({ names: z.array(z.string()) }), 'Secrets were added, replaced or deleted'),
  'secrets.found': event(secretFoundSchema, 'A secret check found a secret in a server\'s traffic (and warned, masked or blocked)'),
} as const;

export type SecretInfo = z.infer<typeof secretInfoSchema>;
export type SecretsList = z.infer<typeof secretsListSchema>;
export type SecretFound = z.infer<typeof secretFoundSchema>;
