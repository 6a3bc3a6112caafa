/*
 * sendsim: appended by tools/uml/build.sh to arch/x86/um/os-Linux/registers.c
 * of the 6.1 and 6.12 UML builds, after renaming that file's own
 * save_fp_registers, restore_fp_registers and arch_init_registers to
 * sendsim_orig_*. Our code, not the kernel's.
 *
 * Why: UML moves a guest process's FPU state with PTRACE_GETREGSET /
 * PTRACE_SETREGSET (NT_X86_XSTATE) through a buffer of FP_SIZE longs, which
 * these kernels fix at 2696 bytes (the XSAVE size of an AVX-512 + PKRU host).
 * The host's xstateregs_set() accepts only a buffer of exactly its own full
 * user XSAVE size; on a host with AMX that is 11008 bytes, every restore fails
 * with EFAULT and the guest's init dies with SIGSEGV (seen on 6.18 hosts with
 * amx_tile). Later kernels size the buffer from the host at run time.
 *
 * What: the first stopped child is asked for its whole XSAVE image; if the
 * host's size exceeds FP_SIZE longs, state moves through a buffer of the
 * host's size and UML keeps its FP_SIZE prefix. Components that lie beyond the
 * prefix (AMX tile config and data, which a guest process could only use after
 * arch_prctl(ARCH_REQ_XCOMP_PERM), which UML does not pass on) are written
 * back in their init state: their XSTATE_BV bits are cleared. On a host whose
 * size fits, nothing changes.
 */
#include <string.h>
#include <cpuid.h>

static unsigned char *sendsim_xbuf;
static size_t sendsim_xlen;                /* host XSAVE size; 0: UML's own path */
static unsigned long long sendsim_keep_bv; /* XSTATE_BV bits inside the prefix */

#define SENDSIM_UML_FP_BYTES (FP_SIZE * sizeof(unsigned long))
#define SENDSIM_XSTATE_BV_OFFSET 512       /* the XSAVE header follows the legacy area */

static void sendsim_xstate_probe(int pid)
{
	size_t big = 1 << 16;
	unsigned char *buf = malloc(big);
	struct iovec iov;
	unsigned int i, eax, ebx, ecx, edx;

	if (buf == NULL)
		return;
	iov.iov_base = buf;
	iov.iov_len = big;
	if (ptrace(PTRACE_GETREGSET, pid, NT_X86_XSTATE, &iov) < 0 ||
	    iov.iov_len <= SENDSIM_UML_FP_BYTES) {
		free(buf);
		return;
	}
	/* x87 and SSE live in the legacy area; CPUID leaf 0xd sub-leaf i gives
	 * component i's size (eax) and standard-format offset (ebx); ecx bit 0
	 * marks supervisor components, which never appear in this image. */
	sendsim_keep_bv = 3;
	for (i = 2; i < 63; i++) {
		if (!__get_cpuid_count(0xd, i, &eax, &ebx, &ecx, &edx) || eax == 0)
			continue;
		if (!(ecx & 1) && (size_t)ebx + eax <= SENDSIM_UML_FP_BYTES)
			sendsim_keep_bv |= 1ULL << i;
	}
	sendsim_xbuf = buf;
	sendsim_xlen = iov.iov_len;
}

void arch_init_registers(int pid)
{
	sendsim_orig_arch_init_registers(pid);
	if (sendsim_xlen == 0)
		sendsim_xstate_probe(pid);
}

int save_fp_registers(int pid, unsigned long *fp_regs)
{
	struct iovec iov;

	if (sendsim_xlen == 0)
		return sendsim_orig_save_fp_registers(pid, fp_regs);
	iov.iov_base = sendsim_xbuf;
	iov.iov_len = sendsim_xlen;
	if (ptrace(PTRACE_GETREGSET, pid, NT_X86_XSTATE, &iov) < 0)
		return -errno;
	memcpy(fp_regs, sendsim_xbuf, SENDSIM_UML_FP_BYTES);
	return 0;
}

int restore_fp_registers(int pid, unsigned long *fp_regs)
{
	struct iovec iov;
	unsigned long long bv;

	if (sendsim_xlen == 0)
		return sendsim_orig_restore_fp_registers(pid, fp_regs);
	memcpy(sendsim_xbuf, fp_regs, SENDSIM_UML_FP_BYTES);
	memset(sendsim_xbuf + SENDSIM_UML_FP_BYTES, 0,
	       sendsim_xlen - SENDSIM_UML_FP_BYTES);
	memcpy(&bv, sendsim_xbuf + SENDSIM_XSTATE_BV_OFFSET, sizeof(bv));
	bv &= sendsim_keep_bv;
	memcpy(sendsim_xbuf + SENDSIM_XSTATE_BV_OFFSET, &bv, sizeof(bv));
	iov.iov_base = sendsim_xbuf;
	iov.iov_len = sendsim_xlen;
	if (ptrace(PTRACE_SETREGSET, pid, NT_X86_XSTATE, &iov) < 0)
		return -errno;
	return 0;
}
