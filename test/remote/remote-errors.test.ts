/** How failures of requests to remote servers are worded (real fetch failures, real SDK errors). */
import net from 'node:net';
import { SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { Agent, fetch as undiciFetch } from 'undici';
import { describe, expect, it } from 'vitest';
import { describeFailure, displayUrl, httpStatusOf } from '../../src/main/core/upstream/remote-errors.js';

async function fetchError(url: string): Promise<unknown> {
  try {
    await fetch(url);
  } catch (err) {
    return err;
  }
  throw new Error(`expected ${url} to fail`);
}

describe('remote failure wording', () => {
  it('connection refused and DNS, from real fetch failures', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(describeFailure(await fetchError(`http://127.0.0.1:${port}/mcp`))).toMatchObject({ cause: 'refused' });
  });

  it('DNS, from a real fetch whose resolver answers "not found"', async () => {
    // Resolving a name here would query this machine's resolver, which is not on loopback, and
    // tests send nothing beyond loopback. So only the lookup is stubbed, with the error getaddrinfo
    // gives for an unknown name; the fetch, its connector and the error wrapping are real.
    const dispatcher = new Agent({
      connect: {
        lookup: (hostname, _options, callback) =>
          callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname }), '', 4),
      },
    });
    let failure: unknown;
    try {
      await undiciFetch('http://patchbay-test.invalid/mcp', { dispatcher });
    } catch (err) {
      failure = err;
    } finally {
      await dispatcher.close();
    }
    expect(describeFailure(failure)).toMatchObject({ cause: 'dns' });
  });

  it('HTTP statuses from the SDK transports', () => {
    const e502 = new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Error POSTing to endpoint: bad', { status: 502, statusText: 'Bad Gateway' });
    expect(httpStatusOf(e502)).toBe(502);
    expect(describeFailure(e502)).toMatchObject({ cause: 'http', status: 502, detail: expect.stringMatching(/answered HTTP 502/) });
    expect(httpStatusOf(new Error('Error POSTing to endpoint (HTTP 404): gone'))).toBe(404);
    expect(httpStatusOf(new Error('something (HTTP 404) else'))).toBeUndefined();
  });

  it('TLS codes name NODE_EXTRA_CA_CERTS; timeouts; unknown errors keep their message', () => {
    const tls = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }) });
    expect(describeFailure(tls)).toMatchObject({ cause: 'tls', detail: expect.stringMatching(/NODE_EXTRA_CA_CERTS/) });
    const timeout = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }) });
    expect(describeFailure(timeout)).toMatchObject({ cause: 'timeout' });
    expect(describeFailure(new Error('odd'))).toMatchObject({ cause: 'unknown', detail: 'failed: odd' });
  });

  it('URLs are shown without query or fragment (they may carry keys)', () => {
    expect(displayUrl(new URL('https://mcp.example/mcp?api_key=secret#x'))).toBe('https://mcp.example/mcp');
  });
});
