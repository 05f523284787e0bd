/**
 * Linux, `"subprocesses": false`: a seccomp filter (classic BPF, generated here — no native
 * dependency) that bubblewrap loads (`--seccomp FD`) just before it execs the server, so that the
 * server cannot start a second process:
 * - fork and vfork fail with EPERM; clone fails with EPERM unless it makes a thread (CLONE_THREAD:
 *   Node, libuv and glibc's pthread_create need threads); clone3 fails with ENOSYS, which makes
 *   glibc fall back to clone, where the flags can be read (clone3 passes them in memory, which a
 *   filter cannot read);
 * - execve and execveat stay allowed: bwrap applies the filter *before* its own exec of the
 *   server, and a stateless filter cannot tell that first exec from a later one. So a server can
 *   still replace itself with another program (same pid, same sandbox, same filter), but it can
 *   never run two processes at once;
 * - a syscall made under another architecture's convention (x86_64's x32 numbers, or a 32-bit
 *   entry on a 64-bit kernel) kills the process: its numbers would mean other calls.
 */

/** Where the kernel's `struct seccomp_data` keeps the syscall number, the arch and the first argument. */
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16; // little-endian: the low 32 bits of args[0] (clone's flags)

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
const CLONE_THREAD = 0x00010000;
const X32_SYSCALL_BIT = 0x40000000;

export interface SeccompArch {
  /** AUDIT_ARCH_* of the kernel's convention. */
  audit: number;
  clone: number;
  clone3: number;
  /** Only on architectures that still have them (x86_64; aarch64 forks through clone). */
  fork?: number;
  vfork?: number;
  /** x86_64: numbers with this bit set are x32 calls. */
  x32?: boolean;
}

/** Syscall numbers (linux/arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h). */
export const SECCOMP_ARCHES: Record<string, SeccompArch> = {
  x64: { audit: 0xc000003e, clone: 56, clone3: 435, fork: 57, vfork: 58, x32: true },
  arm64: { audit: 0xc00000b7, clone: 220, clone3: 435 },
};

interface Insn {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

/**
 * The filter for an architecture (Node's `process.arch` name), as the kernel's
 * `struct sock_filter[]` bytes; undefined when this architecture is not known here (the server
 * then does not start: see sandbox-spawn.ts).
 */
export function noSubprocessFilter(arch: string = process.arch): Buffer | undefined {
  const a = SECCOMP_ARCHES[arch];
  if (a === undefined) return undefined;
  return encode(noSubprocessProgram(a));
}

export function noSubprocessProgram(a: SeccompArch): Insn[] {
  // Built with symbolic targets, then resolved to the relative jumps classic BPF uses.
  type Target = 'allow' | 'thread' | 'eperm' | 'enosys' | 'kill' | 'clone';
  const prog: Array<{ code: number; k: number; jt?: Target; jf?: Target; label?: Target }> = [];
  const ld = (k: number) => prog.push({ code: LD_W_ABS, k });
  const jump = (code: number, k: number, jt?: Target, jf?: Target) => prog.push({ code, k, ...(jt ? { jt } : {}), ...(jf ? { jf } : {}) });
  const ret = (k: number, label?: Target) => prog.push({ code: RET_K, k, ...(label ? { label } : {}) });

  ld(ARCH);
  jump(JEQ_K, a.audit, undefined, 'kill');
  ld(NR);
  if (a.x32) jump(JGE_K, X32_SYSCALL_BIT, 'kill');
  jump(JEQ_K, a.clone, 'clone');
  jump(JEQ_K, a.clone3, 'enosys');
  if (a.fork !== undefined) jump(JEQ_K, a.fork, 'eperm');
  if (a.vfork !== undefined) jump(JEQ_K, a.vfork, 'eperm');
  ret(RET_ALLOW, 'allow');
  // clone: a thread (CLONE_THREAD) passes, a new process does not.
  prog.push({ code: LD_W_ABS, k: ARG0_LOW, label: 'clone' });
  jump(JSET_K, CLONE_THREAD, 'thread', 'eperm');
  ret(RET_ALLOW, 'thread');
  ret(RET_ERRNO | EPERM, 'eperm');
  ret(RET_ERRNO | ENOSYS, 'enosys');
  ret(RET_KILL_PROCESS, 'kill');

  const at = new Map(prog.flatMap((p, i) => (p.label ? [[p.label, i] as const] : [])));
  const rel = (i: number, t: Target | undefined): number => {
    if (t === undefined) return 0;
    const d = at.get(t)! - i - 1;
    // Classic BPF jumps only forward, by at most 255: a backward target would be a bug here.
    if (d < 0 || d > 255) throw new Error(`seccomp: jump from ${i} to ${t} out of range`);
    return d;
  };
  return prog.map((p, i) => ({ code: p.code, jt: rel(i, p.jt), jf: rel(i, p.jf), k: p.k }));
}

/** `struct sock_filter { __u16 code; __u8 jt; __u8 jf; __u32 k; }`, little-endian (x86_64, aarch64). */
function encode(prog: Insn[]): Buffer {
  const buf = Buffer.alloc(prog.length * 8);
  prog.forEach((p, i) => {
    buf.writeUInt16LE(p.code, i * 8);
    buf.writeUInt8(p.jt, i * 8 + 2);
    buf.writeUInt8(p.jf, i * 8 + 3);
    buf.writeUInt32LE(p.k >>> 0, i * 8 + 4);
  });
  return buf;
}

/** Runs a classic-BPF program on a syscall (for the unit tests: what the kernel would answer). */
export function runFilter(prog: Insn[], call: { arch: number; nr: number; arg0?: number }): number {
  let acc = 0;
  for (let pc = 0; pc < prog.length; pc++) {
    const p = prog[pc]!;
    if (p.code === LD_W_ABS) acc = p.k === ARCH ? call.arch : p.k === NR ? call.nr : p.k === ARG0_LOW ? (call.arg0 ?? 0) : 0;
    else if (p.code === RET_K) return p.k >>> 0;
    else {
      const hit = p.code === JEQ_K ? acc === p.k : p.code === JGE_K ? acc >>> 0 >= p.k >>> 0 : (acc & p.k) !== 0;
      pc += hit ? p.jt : p.jf;
    }
  }
  throw new Error('seccomp: the program fell off its end');
}

export const SECCOMP_RESULTS = { allow: RET_ALLOW, eperm: RET_ERRNO | EPERM, enosys: RET_ERRNO | ENOSYS, kill: RET_KILL_PROCESS };
