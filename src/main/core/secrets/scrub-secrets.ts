/** Below this length a value is too likely to occur by chance in ordinary text to be masked. */
export const MIN_SCRUB_LENGTH = 4;

/**
 * Masks every secret value in `text` as `[secret:NAME]` (longest first, so a value containing
 * another is masked whole). Shared by every SecretStore, whatever keeps the values at rest.
 */
export function scrubSecrets(values: ReadonlyMap<string, string>, text: string): string {
  const entries = [...values].filter(([, v]) => v.length >= MIN_SCRUB_LENGTH).sort((a, b) => b[1].length - a[1].length);
  let out = text;
  for (const [name, value] of entries) {
    const mask = `[secret:${name}]`;
    out = out.split(value).join(mask);
    // The logger scrubs JSON-encoded fields too, where quotes and backslashes appear escaped.
    const encoded = JSON.stringify(value).slice(1, -1);
    if (encoded !== value) out = out.split(encoded).join(mask);
  }
  return out;
}
