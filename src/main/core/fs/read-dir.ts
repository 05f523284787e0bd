import { readdir } from 'node:fs/promises';
import { errCode } from './err-code.js';

/** The names in `dir`; none when it does not exist yet (nothing was ever written there). */
export async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if (errCode(err) === 'ENOENT') return [];
    throw err;
  }
}
