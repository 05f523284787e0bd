/**
 * `Mcp-Param-*` headers (SEP-2243): a tool may declare, with `x-mcp-header` in its input schema,
 * that a parameter is mirrored into a header for intermediaries to route on. The hub processes
 * the body, so it must reject a `tools/call` whose declared headers are missing, malformed or
 * disagree with the arguments (400, HeaderMismatch). It learns each server's declarations from
 * the `tools/list` answers that pass through it; a tool it has not seen listed is not checked
 * (the server, when it is HTTP, gets the headers and checks them itself).
 */
import { decodeHeaderValue, paramHeaderString, ToolHeaderDeclarations, trimOws, valueAtPath } from '../protocol/modern.js';

/** Per server: what its `tools/list` answers declared. */
export class ParamHeaderIndex {
  private readonly byServer = new Map<string, ToolHeaderDeclarations>();

  /** Learns from a `tools/list` result of a server (one page of it). */
  learn(serverId: string, result: unknown): void {
    let index = this.byServer.get(serverId);
    if (!index) this.byServer.set(serverId, (index = new ToolHeaderDeclarations()));
    index.learn(result);
  }

  forget(serverId: string): void {
    this.byServer.delete(serverId);
  }

  /**
   * Why a `tools/call`'s `Mcp-Param-*` headers do not match its arguments, or undefined when they
   * do (or the tool's declarations are unknown). `header(name)` reads a request header.
   */
  check(serverId: string, tool: string, args: unknown, header: (name: string) => string | undefined): string | undefined {
    const decls = this.byServer.get(serverId)?.of(tool) ?? [];
    for (const decl of decls) {
      const name = `Mcp-Param-${decl.header}`;
      const sent = header(name.toLowerCase());
      const value = valueAtPath(args, decl.path);
      const expected = value === undefined || value === null ? undefined : paramHeaderString(value);
      if (expected === undefined) {
        if (sent !== undefined && value !== undefined && value !== null) return `the ${name} header is present but arguments.${decl.path.join('.')} is not a string, number or boolean`;
        continue;
      }
      if (sent === undefined) return `arguments.${decl.path.join('.')} is "${expected}" but the required ${name} header is absent`;
      const decoded = decodeHeaderValue(trimOws(sent));
      if (decoded === undefined) return `the ${name} header carries an invalid value`;
      const equal = typeof value === 'number' ? Number(decoded) === value : decoded === expected;
      if (!equal) return `arguments.${decl.path.join('.')} is "${expected}" but the ${name} header says "${decoded}"`;
    }
    return undefined;
  }
}
