import { describe, expect, it } from 'vitest';
import { SECCOMP_ARCHES, SECCOMP_RESULTS, noSubprocessFilter, noSubprocessProgram, runFilter } from './seccomp.js';

const CLONE_THREAD = 0x10000;
const THREAD_FLAGS = 0x3d0f00; // glibc's pthread_create: CLONE_VM|FS|FILES|SIGHAND|THREAD|SYSVSEM|SETTLS|PARENT_SETTID|CHILD_CLEARTID
const FORK_FLAGS = 0x1200011; // glibc's fork: CLONE_CHILD_SETTID|CLONE_CHILD_CLEARTID|SIGCHLD

describe('the "no subprocesses" seccomp filter', () => {
  for (const [name, arch] of Object.entries(SECCOMP_ARCHES)) {
    it(`${name}: threads pass; fork, vfork, a forking clone fail with EPERM; clone3 with ENOSYS; exec and the rest pass; a foreign arch is killed`, () => {
      const prog = noSubprocessProgram(arch);
      const call = (nr: number, arg0?: number) => runFilter(prog, { arch: arch.audit, nr, ...(arg0 !== undefined ? { arg0 } : {}) });
      expect(call(arch.clone, THREAD_FLAGS)).toBe(SECCOMP_RESULTS.allow);
      expect(THREAD_FLAGS & CLONE_THREAD).toBeTruthy();
      expect(call(arch.clone, FORK_FLAGS)).toBe(SECCOMP_RESULTS.eperm);
      expect(call(arch.clone, 0x4111)).toBe(SECCOMP_RESULTS.eperm); // posix_spawn: CLONE_VM|CLONE_VFORK|SIGCHLD
      expect(call(arch.clone3)).toBe(SECCOMP_RESULTS.enosys);
      if (arch.fork !== undefined) expect(call(arch.fork)).toBe(SECCOMP_RESULTS.eperm);
      if (arch.vfork !== undefined) expect(call(arch.vfork)).toBe(SECCOMP_RESULTS.eperm);
      expect(call(name === 'x64' ? 59 : 221)).toBe(SECCOMP_RESULTS.allow); // execve: bwrap's own exec of the server
      expect(call(0)).toBe(SECCOMP_RESULTS.allow);
      expect(runFilter(prog, { arch: 0x40000003, nr: 2 })).toBe(SECCOMP_RESULTS.kill); // i386
      if (arch.x32) expect(call(0x40000000 + 57)).toBe(SECCOMP_RESULTS.kill);
    });
  }

  it('is 8 bytes an instruction, and none for an architecture it does not know', () => {
    expect(noSubprocessFilter('x64')!.length).toBe(noSubprocessProgram(SECCOMP_ARCHES.x64!).length * 8);
    expect(noSubprocessFilter('arm64')!.readUInt16LE(0)).toBe(0x20);
    expect(noSubprocessFilter('riscv64')).toBeUndefined();
  });
});
