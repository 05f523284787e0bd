/**
 * Issue 25 on macOS and Windows. There is no macOS machine here: the Seatbelt profile (sbpl.ts)
 * and the sandbox-exec command line are checked as generated text, not run. Windows has no
 * sandbox: the doctor says so plainly for a server that asks for one (it does not start there).
 */
import { describe, expect, it } from 'vitest';
import { sandboxChecks } from '../../src/main/core/clients/doctor-sandbox.js';
import type { SandboxPolicy } from '../../src/main/core/sandbox/sandbox-policy.js';
import { resolvePolicy } from '../../src/main/core/sandbox/sandbox-policy.js';
import { sandboxSupport } from '../../src/main/core/sandbox/sandbox-support.js';
import { sandboxExecCommand, sbplProfile, sbplString } from '../../src/main/core/sandbox/sbpl.js';

const base: SandboxPolicy = {
  read: ['/usr/lib', '/System', '/opt/homebrew/Cellar/node/22.1.0', '/Users/ada/code/notes'],
  write: ['/Users/ada/Library/Application Support/Patchbay/sandbox/notes'],
  network: 'none',
  hosts: [],
  subprocesses: true,
  cwd: '/Users/ada/Library/Application Support/Patchbay/sandbox/notes',
  networkReason: '',
};
const tmp = '/Users/ada/Library/Application Support/Patchbay/sandbox/notes/.tmp';

describe('macOS: the sandbox-exec profile (generated text only — no macOS machine runs these tests)', () => {
  it('denies by default; reads the runtime and the policy, writes its own directory and temp; no network; may fork by default', () => {
    const profile = sbplProfile(base, { tmp });
    expect(profile.startsWith('(version 1)\n(deny default)\n')).toBe(true);
    expect(profile).toContain('(allow process-exec)');
    expect(profile).toContain('(allow process-fork)');
    expect(profile).toMatch(/\(allow file-read\*\n {2}\(subpath "\/usr\/lib"\)\n {2}\(subpath "\/System"\)\n {2}\(subpath "\/opt\/homebrew\/Cellar\/node\/22\.1\.0"\)\n {2}\(subpath "\/Users\/ada\/code\/notes"\)\)/);
    expect(profile).toContain(`(allow file-read* file-write*\n  (subpath "${base.cwd}")\n  (subpath "${tmp}"))`);
    expect(profile).toContain('(allow sysctl-read)');
    expect(profile).toContain('(global-name "com.apple.system.opendirectoryd.libinfo")');
    expect(profile).not.toMatch(/network/);
    // Nothing of the home directory but what the policy names.
    expect(profile).not.toMatch(/subpath "\/Users\/ada"\)/);
  });

  it('"subprocesses": false leaves out process-fork; a host list allows only the proxy port on localhost; "all" allows the network and DNS', () => {
    expect(sbplProfile({ ...base, subprocesses: false }, { tmp })).not.toContain('(allow process-fork)');
    const hosts = sbplProfile({ ...base, network: 'hosts', hosts: ['api.example.com'] }, { tmp, proxyPort: 41000 });
    expect(hosts).toContain('(allow network-outbound (remote tcp "localhost:41000"))');
    expect(hosts).not.toContain('(allow network*)');
    expect(() => sbplProfile({ ...base, network: 'hosts', hosts: ['a.test'] }, { tmp })).toThrow(/hub proxy/);
    const all = sbplProfile({ ...base, network: 'all' }, { tmp });
    expect(all).toContain('(allow network*)');
    expect(all).toContain('(literal "/private/var/run/mDNSResponder")');
  });

  it('quotes paths as SBPL strings and refuses control characters', () => {
    expect(sbplString('/a "b"\\c')).toBe('"/a \\"b\\"\\\\c"');
    expect(() => sbplString('/a\nb')).toThrow(/control characters/);
    expect(sbplProfile({ ...base, read: ['/x") (allow default) ("'] }, { tmp })).toContain('(subpath "/x\\") (allow default) (\\"")');
  });

  it('runs `sandbox-exec -p <profile> <command…>` with HOME, TMPDIR and, for a host list, the proxy variables', () => {
    const wrapped = sandboxExecCommand({ ...base, network: 'hosts', hosts: ['api.example.com'] }, '/opt/homebrew/bin/node', ['/Users/ada/code/notes/index.js'], { tmp, proxyPort: 41000 });
    expect(wrapped.command).toBe('/usr/bin/sandbox-exec');
    expect(wrapped.args[0]).toBe('-p');
    expect(wrapped.args.slice(2)).toEqual(['/opt/homebrew/bin/node', '/Users/ada/code/notes/index.js']);
    expect(wrapped.env).toMatchObject({ HOME: base.cwd, TMPDIR: tmp, HTTPS_PROXY: 'http://127.0.0.1:41000', http_proxy: 'http://127.0.0.1:41000', NO_PROXY: '' });
    expect(sandboxExecCommand(base, 'node', [], { tmp }).env.HTTPS_PROXY).toBeUndefined();
  });

  it("the policy reads macOS's runtime paths there, not Linux's", () => {
    const policy = resolvePolicy(true, { command: 'node', commandPath: undefined, args: [], cwd: undefined, ownDir: '/tmp', home: '/Users/ada', platform: 'darwin' });
    expect(policy.read).not.toContain('/etc/ld.so.cache');
    expect(policy.subprocesses).toBe(true);
  });

  it('is available where /usr/bin/sandbox-exec exists, and says plainly when it does not', async () => {
    expect(await sandboxSupport('darwin', '/bin/sh')).toEqual({ available: true, detail: 'sandbox-exec (/bin/sh)' });
    expect(await sandboxSupport('darwin', '/nonexistent/sandbox-exec')).toMatchObject({ available: false, detail: expect.stringContaining('/nonexistent/sandbox-exec is missing') });
  });
});

describe('Windows: no sandbox, said plainly', () => {
  const doctorOn = (platform: NodeJS.Platform, mcpServers: Record<string, unknown>) =>
    sandboxChecks({ service: { deps: { host: { platform }, config: { get: () => ({ mcpServers }) } } } } as never);

  it('the doctor says a server set to run in a sandbox will not start there, and why; without one, that none can be', async () => {
    const [check] = await doctorOn('win32', { notes: { command: 'node', args: ['x.js'], sandbox: true } });
    expect(check).toMatchObject({
      status: 'error',
      title: "server 'notes' is set to run in a sandbox, and none is available here: it will not start",
      detail: expect.stringMatching(/^servers cannot be sandboxed on Windows: there is no process sandbox/),
    });
    expect(await doctorOn('win32', {})).toEqual([expect.objectContaining({ status: 'info', title: 'servers cannot be sandboxed here', detail: expect.stringContaining('Windows') })]);
  });
});
