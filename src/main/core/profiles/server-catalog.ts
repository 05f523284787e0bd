/**
 * What each server last said about itself (its initialize answer and its lists), whichever
 * aggregated session heard it. A member that is down keeps its tools listed from here (their
 * calls fail with an error naming it), and the inventory the UI and CLI show reads from here.
 */
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

  list(server: string, kind: ListKind, items: unknown[]): void {
    const entry = this.entry(server);
    (entry as Record<ListKind, unknown[]>)[kind] = items;
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
