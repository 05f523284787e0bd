/**
 * Reads a secret value from stdin: piped (`printf %s "$TOKEN" | patchbay secrets set NAME`) or
 * typed at a terminal with echo off. Never from argv, which shell history and `ps` expose.
 */
import type { CliIo } from './command.js';

/** Generous for PEM keys and service-account JSON, small enough to stop `cat /dev/zero`. */
export const MAX_SECRET_BYTES = 1024 * 1024;

export class SecretInputError extends Error {
  override name = 'SecretInputError';
}

export async function readSecretValue(io: CliIo, prompt: string): Promise<string> {
  const raw =
    io.stdin.isTTY && io.stdin.setRawMode ? await readHidden(io, prompt) : await readAll(io.stdin);
  // One trailing newline is the shell's (echo, a file's last line), not part of the secret.
  return raw.replace(/\r?\n$/, '');
}

async function readAll(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += buf.length;
    if (size > MAX_SECRET_BYTES)
      throw new SecretInputError(`the value is larger than ${MAX_SECRET_BYTES} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function readHidden(io: CliIo, prompt: string): Promise<string> {
  const stdin = io.stdin;
  const setRaw = stdin.setRawMode?.bind(stdin);
  io.stderr.write(prompt);
  return new Promise<string>((resolve, reject) => {
    let value = '';
    const finish = (error?: Error): void => {
      stdin.removeListener('data', onData);
      setRaw?.(false);
      stdin.pause();
      io.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer | string): void => {
      const text = chunk.toString();
      // Arrow keys and other escape sequences are not part of a value; drop them whole.
      if (text.startsWith('\u001b')) return;
      for (const ch of text) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
        if (ch === '\u0003') return finish(new SecretInputError('cancelled'));
        if (ch === '\u007f' || ch === '\b') {
          value = Array.from(value).slice(0, -1).join('');
          continue;
        }
        if (ch < ' ') continue;
        value += ch;
        if (value.length > MAX_SECRET_BYTES)
          return finish(new SecretInputError(`the value is larger than ${MAX_SECRET_BYTES} bytes`));
      }
    };
    setRaw?.(true);
    stdin.on('data', onData);
    stdin.resume();
  });
}
