/**
 * What each server last said about itself (its initialize answer and its lists), whichever
 * aggregated session heard it. A member that is down keeps its tools listed from here (their
 * calls fail with an error naming it), and the inventory the UI and CLI show reads from here.
 * A server may list more to a client that declares sampling, elicitation and roots: the lists
 * such a client heard are kept apart (`full`), and the inventory counts those, so a profile's
 * counts are its playground's (shared/protocol.ts, FULL_CLIENT_CAPABILITIES).
 */
import { isFullClient } from '../../../shared/protocol.js';
import type { MemberInit } from './member-source.js';
import type { NamedDefinition } from './profile-merge.js';
import type { ToolDefinition } from './tool-digest.js';

export type ListKind = 'tools' | 'prompts' | 'resources' | 'templates';

export interface CatalogEntry {
  init?: MemberInit;
  tools?: ToolDefinition[];
  prompts?: NamedDefinition[];
  resources?: Array<Record<string, unknown>>;
  templates?: Array<Record<string, unknown>>;
  /** The lists as a client with every capability heard them (the playground's, the inventory's probe). */
  full?: Partial<Record<ListKind, unknown[]>>;
  /** ISO time of the last answer. */
  updatedAt?: string;
  /** The last failure to reach it, cleared by the next answer. */
  error?: { message: string; at: string };
}

export class ServerCatalog {
  private readonly entries = new Map<string, CatalogEntry>();

  get(server: string): CatalogEntry | undefined {
    return this.entries.get(server);
  }

  init(server: string, init: MemberInit): void {
    const entry = this.entry(server);
    entry.init = init;
    delete entry.error;
    entry.updatedAt = new Date().toISOString();
  }

  /**
   * `clientCapabilities`: what the client whose members answered declared (decides whether the
   * list is also the full one). `fill`: heard by the inventory's own probe, a fresh session — it
   * fills a list nobody heard yet but never replaces what a client's session heard (that session
   * may have seen the member change a definition since it started).
   */
  list(server: string, kind: ListKind, items: unknown[], clientCapabilities?: unknown, mode: 'heard' | 'fill' = 'heard'): void {
    const entry = this.entry(server);
    if (mode === 'heard' || entry[kind] === undefined) (entry as Record<ListKind, unknown[]>)[kind] = items;
    if (isFullClient(clientCapabilities)) (entry.full ??= {})[kind] = items;
    entry.updatedAt = new Date().toISOString();
  }

  fail(server: string, message: string): void {
    this.entry(server).error = { message, at: new Date().toISOString() };
  }

  /** Forgets a server whose entry changed: what it said no longer describes it. */
  forget(server: string): void {
    this.entries.delete(server);
  }

  private entry(server: string): CatalogEntry {
    let entry = this.entries.get(server);
    if (!entry) this.entries.set(server, (entry = {}));
    return entry;
  }
}
