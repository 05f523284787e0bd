/**
 * Limits clients put on tools, for the warnings beside a profile's totals. Each is a documented
 * or widely reported limit; a profile over one works elsewhere but not in that client (or, for
 * token budgets, crowds the model's context).
 */
export interface ClientLimit {
  client: string;
  kind: 'tools' | 'tokens';
  limit: number;
  /** What happens past the limit. */
  effect: string;
}

export const CLIENT_LIMITS: readonly ClientLimit[] = [
  { client: 'Cursor', kind: 'tools', limit: 40, effect: 'Cursor uses about 40 MCP tools at most; the rest are not offered to the model' },
  { client: 'OpenAI API', kind: 'tools', limit: 128, effect: 'a request with more than 128 tools is refused' },
  { client: 'VS Code (Copilot)', kind: 'tools', limit: 128, effect: 'VS Code refuses a request with more than 128 tools' },
  { client: 'Claude Code', kind: 'tokens', limit: 25_000, effect: 'Claude Code warns of a large MCP tools context above 25,000 tokens' },
];

export interface LimitWarning extends ClientLimit {
  value: number;
  message: string;
}

/** The limits a profile's totals exceed. */
export function limitWarnings(tools: number, tokens: number): LimitWarning[] {
  const out: LimitWarning[] = [];
  for (const l of CLIENT_LIMITS) {
    const value = l.kind === 'tools' ? tools : tokens;
    if (value <= l.limit) continue;
    out.push({ ...l, value, message: `${value.toLocaleString('en-US')} ${l.kind} > ${l.limit.toLocaleString('en-US')}: ${l.effect}` });
  }
  return out;
}
