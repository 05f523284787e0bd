/**
 * Platform skips that say why. Vitest prints a skipped test by its title alone, so a test that
 * cannot run on a platform carries the reason in its title there; where it runs (Linux, and CI,
 * which runs every one of them) the title is unchanged.
 */
export const WINDOWS = process.platform === 'win32';

/** `title`, with why it is skipped when `skipped`. */
export function skipNote(skipped: boolean, title: string, why: string): string {
  return skipped ? `${title} (skipped: ${why})` : title;
}
