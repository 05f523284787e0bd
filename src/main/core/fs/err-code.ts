/** The `code` of a Node system error (`ENOENT`, `EEXIST`, …), or undefined for anything else. */
export function errCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
    ? err.code
    : undefined;
}
