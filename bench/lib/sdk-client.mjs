// @ts-check
/**
 * Client sessions for the workloads of bench/run.mjs: the official SDK v2 client, over stdio or
 * Streamable HTTP, speaking the era its target asks for, and the two tools of the echo server.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { setMaxListeners } from 'node:events';

export const CALL_TIMEOUT_MS = 30_000;

/**
 * The SDK client (2.4.0) adds an abort listener to its HTTP transport's signal for every POST and
 * removes it only on abort: a few thousand calls on one session pass Node's 1,500-listener
 * warning (the same for every target; a closure per call, freed with the session). Call after
 * `connect` (the signal is made there); a transport without one (stdio) is left alone.
 * @param {unknown} transport
 */
export function liftAbortListenerLimit(transport) {
  const signal = /** @type {{ _abortController?: AbortController }} */ (transport)._abortController?.signal;
  if (signal) setMaxListeners(0, signal);
}
const CONNECT_TIMEOUT_MS = 30_000;

let errors = 0;

/** Errors the clients reported outside a call (their `onerror`), for the results file. */
export function clientErrors() {
  return errors;
}

/**
 * @template T
 * @param {Promise<T>} p @param {number} ms @param {string} what
 * @returns {Promise<T>}
 */
export async function withTimeout(p, ms, what) {
  let timer;
  try {
    return await Promise.race([
      p,
      new Promise(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** @param {import('../targets/common.mjs').Running} r */
export async function openSession(r) {
  const client = new Client(
    { name: 'patchbay-bench', version: '1.0.0' },
    r.era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  client.onerror = () => {
    errors++;
  };
  const transport = r.stdio
    ? new StdioClientTransport({ ...r.stdio, stderr: 'ignore' })
    : new StreamableHTTPClientTransport(new URL(/** @type {string} */ (r.url)));
  try {
    await withTimeout(client.connect(transport), CONNECT_TIMEOUT_MS, 'initialize');
  } catch (err) {
    await client.close().catch(() => {});
    throw err;
  }
  liftAbortListenerLimit(transport);
  return {
    client,
    async close() {
      // A 2026-07-28 client has no session to end.
      if (transport instanceof StreamableHTTPClientTransport && r.era !== 'modern')
        await withTimeout(
          transport.terminateSession(),
          CONNECT_TIMEOUT_MS,
          'DELETE (terminate session)',
        );
      await client.close();
    },
  };
}

/** @param {Client} client @param {string} text */
export async function echo(client, text) {
  const res = await client.callTool(
    { name: 'echo', arguments: { text } },
    { timeout: CALL_TIMEOUT_MS },
  );
  const got = /** @type {any} */ (res).content?.[0]?.text;
  if (got !== text) throw new Error(`echo returned ${JSON.stringify(res).slice(0, 200)}`);
}

/** @param {Client} client @param {number} bytes @param {boolean} [json] JSON text rather than `x`s */
export async function blob(client, bytes, json = false) {
  const res = await client.callTool(
    { name: 'blob', arguments: json ? { bytes, json } : { bytes } },
    { timeout: CALL_TIMEOUT_MS },
  );
  const got = /** @type {any} */ (res).content?.[0]?.text;
  if (typeof got !== 'string' || got.length !== bytes)
    throw new Error(
      `blob returned ${typeof got === 'string' ? `${got.length} characters` : JSON.stringify(res).slice(0, 200)} instead of ${bytes}`,
    );
}
