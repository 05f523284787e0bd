/**
 * A sandboxed server's list of hosts (`"network": ["api.example.com", "*.example.org:8443"]`):
 * which destinations the hub's proxy (host-proxy.ts) lets it reach.
 * - `name` matches that name exactly (case-insensitively), on ports 443 and 80;
 * - `*.suffix` matches any name that ends with `.suffix` (not `suffix` itself), on 443 and 80;
 * - either with `:port` matches that port only.
 */

export interface HostRule {
  /** Lower-case; for a glob, the suffix with its leading dot (`.example.com`). */
  name: string;
  glob: boolean;
  ports: number[];
}

export const DEFAULT_PORTS = [443, 80];

export function parseHostRule(entry: string): HostRule {
  const m = /^(.*?)(?::(\d+))?$/.exec(entry.trim().toLowerCase())!;
  const host = m[1]!;
  const ports = m[2] !== undefined ? [Number(m[2])] : DEFAULT_PORTS;
  return host.startsWith('*.') ? { name: host.slice(1), glob: true, ports } : { name: host, glob: false, ports };
}

/** The entry that allows `host:port`, or undefined. */
export function allowedBy(rules: readonly HostRule[], host: string, port: number): HostRule | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  return rules.find((r) => r.ports.includes(port) && (r.glob ? name.endsWith(r.name) && name.length > r.name.length : name === r.name));
}

/** `host:port` of a CONNECT target or an absolute URL's authority; IPv6 in brackets. */
export function splitHostPort(authority: string, defaultPort: number): { host: string; port: number } | undefined {
  const m = /^(\[[^\]]+\]|[^:/]+)(?::(\d+))?$/.exec(authority);
  if (!m) return undefined;
  const port = m[2] !== undefined ? Number(m[2]) : defaultPort;
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}
