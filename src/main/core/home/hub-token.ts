/**
 * The per-install hub token (32 random bytes, base64url) that clients must present on `/mcp*`
 * and `/api*`. It lives in a 0600 file so only the owner's processes (clients, relays, the
 * CLI) can read it.
 */
import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { errCode } from '../fs/err-code.js';
import { createLogger } from '../log/logger.js';

const log = createLogger('hub-token');

const TOKEN_BYTES = 32;
/** 32 bytes in base64url is 43 characters; shorter is not a token we made. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43,}$/;
const isWindows = process.platform === 'win32';

export function generateHubToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/**
 * Read the token, creating it if missing. Two processes starting at once agree on one token:
 * the file is created exclusively (it appears complete or not at all) and the loser reads the
 * winner's token.
 */
export async function loadOrCreateHubToken(tokenFile: string): Promise<string> {
  const existing = await readToken(tokenFile);
  if (existing !== undefined) return existing;

  await mkdir(path.dirname(tokenFile), { recursive: true, mode: 0o700 });
  const token = generateHubToken();
  if (await createExclusively(tokenFile, token)) {
    // Debug, not info: `relay --url` creates one for its embedded hub at every start, and a
    // relay's stderr lands in the client's log (issue 17 item 12).
    log.debug('created a new hub token', { file: tokenFile });
    return token;
  }
  // Another process won the race: use its token.
  const theirs = await readToken(tokenFile);
  if (theirs === undefined)
    throw new Error(`hub token file ${tokenFile} disappeared while it was being created`);
  return theirs;
}

/** Replace the token (every client must pick up the new one). Returns the new token. */
export async function rotateHubToken(tokenFile: string): Promise<string> {
  await mkdir(path.dirname(tokenFile), { recursive: true, mode: 0o700 });
  const token = generateHubToken();
  await writeFileAtomic(tokenFile, token + '\n', { mode: 0o600 });
  log.info('rotated the hub token', { file: tokenFile });
  return token;
}

/** The token in `tokenFile`, or undefined if there is no file. Throws if the file holds no valid token. */
async function readToken(tokenFile: string): Promise<string | undefined> {
  // A creator using the fallback path writes after creating: retry briefly on an empty file.
  for (let attempt = 0; ; attempt++) {
    let text: string;
    try {
      text = await readFile(tokenFile, 'utf8');
    } catch (err) {
      if (errCode(err) === 'ENOENT') return undefined;
      throw err;
    }
    const token = text.trim();
    if (TOKEN_PATTERN.test(token)) {
      await restrictMode(tokenFile);
      return token;
    }
    if (token !== '' || attempt >= 20) {
      // Not regenerated silently: that would change the token under clients without a word.
      throw new Error(
        `hub token file ${tokenFile} does not hold a valid token; delete it and Patchbay will create a new one`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** True if we created the file, false if it already existed. */
async function createExclusively(tokenFile: string, token: string): Promise<boolean> {
  const temp = `${tokenFile}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeNew(temp, token);
    try {
      // link() fails with EEXIST like open('wx'), but the file appears with its full content:
      // a concurrent reader can never see it half written.
      await link(temp, tokenFile);
      return true;
    } catch (err) {
      const code = errCode(err);
      if (code === 'EEXIST') return false;
      // Filesystems without hard links (FAT, some network shares): create with 'wx' directly.
      if (
        code !== 'EPERM' &&
        code !== 'ENOTSUP' &&
        code !== 'EOPNOTSUPP' &&
        code !== 'ENOSYS' &&
        code !== 'EXDEV'
      )
        throw err;
    }
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  try {
    await writeNew(tokenFile, token);
    return true;
  } catch (err) {
    if (errCode(err) === 'EEXIST') return false;
    throw err;
  }
}

async function writeNew(file: string, token: string): Promise<void> {
  const handle = await open(file, 'wx', 0o600);
  try {
    await handle.writeFile(token + '\n');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function restrictMode(tokenFile: string): Promise<void> {
  if (isWindows) return;
  const mode = (await stat(tokenFile)).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    log.warn(
      `hub token file was readable by others (mode ${mode.toString(8).padStart(4, '0')}); restricting it to 0600`,
      { file: tokenFile },
    );
    await chmod(tokenFile, 0o600);
  }
}

/** The hub token, or undefined when there is none (a hub started with --no-auth needs none). */
export async function readHubToken(tokenFile: string): Promise<string | undefined> {
  try {
    const token = (await readFile(tokenFile, 'utf8')).trim();
    return token === '' ? undefined : token;
  } catch (err) {
    if (errCode(err) === 'ENOENT') return undefined;
    throw new Error(`cannot read the hub token ${tokenFile}: ${(err as Error).message}`);
  }
}
