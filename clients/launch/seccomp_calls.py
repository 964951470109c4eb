"""The calls the seccomp filter of every sandbox stops, and why: the kernel's
key store, inotify and fanotify instances, dnotify's folder watches, Linux AIO
contexts, tracing another process, vsock sockets, io_uring, userfaultfd, perf
events, the kernel's log, BPF, secret memory, socket filters, seccomp
listeners and huge pages are refused, and so is setting the core dump limit; writing out the host's
disks does nothing.

Keys (`add_key`, `request_key`, `keyctl`) belong to no namespace a sandbox
creates. A bot could link a key of its own into its user's keyring on the
host, where any later bot (the next game's, another tournament's) found it in
/proc/keys and read it back: it kept what it had seen from one game to the
next, which a fresh /tmp per game is meant to rule out. It could also pin
kernel memory that no cgroup counts. Docker's default profile refuses the same
three calls, with the same error.

inotify and fanotify instances (`inotify_init`, `inotify_init1`,
`fanotify_init`) are counted per user of the host, through every user
namespace: 128 of each by default (fs.inotify.max_user_instances,
fs.fanotify.max_user_groups), for all of that user's processes together. A bot
holding 128 (its open file limit allows 256) left none to the host's root, or
to the runner's user, while it played: systemd and every other program
watching files failed with EMFILE. Their events on the files every sandbox sees
would also signal between bots. A bot has no files worth watching. So
`fcntl(F_NOTIFY)` is refused too (dnotify, the older way to watch a folder,
which needs no instance): a bot watching the folders every sandbox sees
(`/usr`, the Python running Sheepfold) was signalled each time any process of
the machine read a file in them, another bot starting or the runner importing
a module among them. And `fcntl(F_SETLEASE)`: a lease lets its holder stall
for up to fs.lease-break-time (45 s) any process of the machine that opens
the file for writing, and a bot run as root may take one on any file it sees
that root owns (an ordinary user's, on that user's files): the organiser
saving a file of Sheepfold's own packages waited on a bot's lease so.

Linux AIO contexts (`io_setup`) are counted for the whole machine, whatever
their user or namespace: 65,536 events by default (fs.aio-max-nr), with no
exception for root. One `io_setup` of 65,536 events, a few megabytes, took
them all while the bot ran, and every other program on the host (a database,
a VM) got EAGAIN for its own. No bot needs them.

`ptrace` and `process_vm_writev` are refused: bwrap's own process, pid 1 of
the sandbox, runs as the bot's user without the bot's limits (prlimit sets
them on the bot's program alone). A bot attached to it, made it exec a program
of its own, and that program held 3 GB under a 256 MB memory limit, with the
runner's process, CPU and file limits. A bot has no debugger to run.

`socket` is refused for one family, AF_VSOCK: virtual machine sockets belong
to no network namespace, so a bot reached the hypervisor of the VM it runs on
(and, under WSL2, the Windows host) through them, past the sandbox's empty
network. Docker's default profile refuses the same. i386's `socketcall`
makes a socket too (its first argument `SYS_SOCKET`), with the family in
memory no filter can read, and any x86-64 program may call it (`int 0x80`):
a bot made a vsock socket so. So `socketcall(SYS_SOCKET, ...)` is refused
whatever the family; an i386 program makes its sockets with `socket` (the
direct call, which i386 has had since Linux 4.3) or not at all.

io_uring (`io_uring_setup`, `io_uring_enter`, `io_uring_register`) is refused
as a whole, as Docker's default profile does: its operations make sockets,
connect them and more inside the kernel, where no filter sees their
arguments, and a bot made a vsock socket through it once socket() refused
one. Runtimes that use it (libuv, for Node) fall back to threads.

`userfaultfd` is refused, as Docker's default profile does: it lets a
process pause the kernel for as long as it likes wherever the kernel copies
from or to its memory. Where vm.unprivileged_userfaultfd is 1 (the default
before Linux 5.11, and set for live migration of VMs), a bot could pause
its own write to its stdout pipe inside the kernel, holding the pipe's lock:
the runner's next read of that pipe would wait on the lock for ever, its
event loop with it, and every game of the run would stop. Where it is 0, the
call still gives a descriptor for faults in user mode only, which no bot
needs either.

`perf_event_open` is refused, as Docker's default profile does: a perf
event's ring buffer is kernel memory that no memory cgroup counts, up to
RLIMIT_MEMLOCK (8 MB) in every process of the bot. A bot of `memory_mb = 64`,
in a memory cgroup of 192 MB, held 440 MB of them in 55 processes while its
cgroup showed 42 MB; a bot allowed more processes held more. Where
kernel.perf_event_paranoid is 2 (the usual default) a process may still count
its own events in user mode, which no bot needs, through a large part of the
kernel.

`syslog` is refused, as Docker's default profile does: the kernel's log
belongs to no namespace, and where kernel.dmesg_restrict is 0 (the kernel's
default when built without CONFIG_SECURITY_DMESG_RESTRICT) any process may
read it whole (`SYSLOG_ACTION_READ_ALL`), a bot as much as the host's own
users: every other program's and container's messages, the out-of-memory
killer's reports (with the names and sizes of the processes it weighed,
other bots' among them), the host's devices and network addresses. The
sandbox's `/proc/kmsg` is hidden (root alone may read it) and its /dev has
no `/dev/kmsg`: the call was the way left. A bot has no kernel log to read.

`bpf` is refused, as Docker's default profile does. Where
kernel.unprivileged_bpf_disabled is 0 (the kernel's default before Linux
5.16, and since where built without CONFIG_BPF_UNPRIV_DEFAULT_OFF), any
process may make BPF maps
and load socket filter programs. A map is kernel memory that the
address-space limit does not see (one array map of 64 entries of 4 MB was
made, 256 MB, by a process limited to 200 MB of address space), counted by
a memory cgroup alone, which an ordinary user's bot has not; and every
program goes through the verifier, where many of the kernel's privilege
escalations were found. A bot has no BPF to load.

`memfd_secret` is refused: its pages are taken out of the kernel's own map
of memory and can never be swapped out, and the address-space limit counts
them only while they are mapped. A bot limited to 1 GB of address space and
8 MB of locked memory mapped 8 MB of secret memory at a time, let go of the
mapping and kept the file: one process held 320 MB so, all of it unevictable
(each of its open files up to its file-size limit, in each of its
processes), and every page of it splits the kernel's map, which slows the
whole machine. A bot has no secret from its own kernel to keep.

Attaching a classic BPF program to a socket is refused: `setsockopt` at
`SOL_SOCKET` with `SO_ATTACH_FILTER` or `SO_ATTACH_REUSEPORT_CBPF` (and
their eBPF forms, `SO_ATTACH_BPF` and `SO_ATTACH_REUSEPORT_EBPF`, whose
programs `bpf` alone would make). The kernel compiles each such program to
machine code, and that code counts against one budget for the whole machine,
every user and namespace together (`net.core.bpf_jit_limit`, a few hundred
MB): past it, a process without CAP_BPF gets no program compiled, and a
kernel built with CONFIG_BPF_JIT_ALWAYS_ON (most distributions') refuses it
outright. A bot of `memory_mb = 2048`, its 56 processes each attaching
filters of 1,000 instructions (about 50 KB of code), then smaller ones, to
every socket its open file limit allowed, took the whole budget (504 MiB):
while it held it, every sandbox started after it failed, bwrap's own
seccomp filter refused (ENOTSUPP), which stops a tournament's run, and so
would every socket or seccomp filter of the host's other programs without
the capability (a container starting, a browser's sandbox). Run as root,
one bot of the default limits got to 491 MiB before its memory cgroup
stopped it: two such bots playing at once take it all, and an ordinary
user's bot has no memory cgroup. i386's `socketcall`
sets an option too (its first argument `SYS_SETSOCKOPT`), with the level
and the option behind a pointer: refused whatever they are, as its
`SYS_SOCKET` is. A bot has no packets to filter.

A bot's own seccomp filters count against the same budget. The kernel caps
a thread's at 32,768 instructions, and they end with the thread (a zombie's
with its reaping, and a bot's processes and threads are capped), so a bot
holds a few MB so. But `seccomp` loading a filter with
SECCOMP_FILTER_FLAG_NEW_LISTENER gives a descriptor that keeps the filter,
and every filter before it in the thread's chain, as long as it is open
anywhere: a child hands it to its parent and ends. A bot so held 120 chains
of 28,000 instructions in one process (6 MB of code against the budget, and
24 MB of kernel memory that no address-space limit counts) once every thread
that loaded them had ended; `processes` times `open_files` of them take the
whole budget. Loading a filter with that flag (the second argument) is
refused; any other filter loads. A listener lets a process answer another's
calls in its stead (a container manager's tool): no bot needs one.

Setting the core dump limit (`setrlimit`, and `prlimit64` with a new limit,
for `RLIMIT_CORE`) is refused; reading it is not. Every bot's is CORE_BYTES
(1 byte), set before bwrap loads this filter. Where the host's
kernel.core_pattern is a pipe (apport on Ubuntu, systemd-coredump on Fedora
and Arch), the kernel starts that program for every crash, as root in the
host's own namespaces, outside every limit of the sandbox, whatever the
limit, but for a limit of exactly 1. With a limit of 0, which only went to
the program as an argument, one process of a bot forking children that
crashed had the host run its core program 449 times in 3 s; a bot lowers 1
to 0 unless this filter stops it.

Huge pages are refused: `memfd_create` with `MFD_HUGETLB`, `mmap` (`mmap2`)
with `MAP_HUGETLB`, `shmget` with `SHM_HUGETLB` (and i386's `ipc` making
such a segment; i386's old `mmap`, whose flags are behind a pointer, is
refused whatever they are). They come from a pool the host sets aside
(vm.nr_hugepages, for a database or VMs), or past it from its memory
(vm.nr_overcommit_hugepages), and no memory cgroup counts them (cgroup v1,
nor v2 unless mounted with memory_hugetlb_accounting). A bot took the host's
whole pool in a memfd file of huge pages it never mapped, which its
address-space limit did not count either: up to its file-size limit a file,
in as many files as it may open. A bot has no need of huge pages.

`sync`, `syncfs`, `fsync` and `fdatasync` return 0 without running. `sync`
writes out every filesystem of the host, and `syncfs` on a descriptor of a
bound folder (`/usr`) the host's own: a bot looping on `sync` ran it 13,000
times a second, each time writing out every other program's data waiting to
be written and sending the host's disk a flush of its write cache (1,000
calls, 1,000 flushes), which the writes of every other program (the
server's database's among them) share the disk with; no limit counts it. `fsync` and
`fdatasync` write out one file, but a file the bot may only read is still
the host's: on ext4, each call on one (a file of `/usr`, opened read-only)
sent the host's disk a flush of its write cache, 1,000 calls 1,000 flushes,
as many as 1,000 `sync`s. None of them is refused, since a program that calls
them (a database, a package's installer) takes an error for a failure:
answered 0 it goes on, and nothing is written out. The files a bot may write
are its own /tmp and /dev/shm, in memory, which they never wrote to a disk.
(`sync_file_range` runs: it writes a file's pages the caller changed and
flushes no disk's cache, and a bot changes no file of the host.)

bwrap takes the filter compiled (`--seccomp FD`): a classic BPF program over
the system call's architecture and number, written out here. It is a few
dozen instructions; libseccomp, which would write them, is a C library that
not every machine with bubblewrap has.
"""

from __future__ import annotations

__all__ = [
    "AF_VSOCK",
    "AIO_CALLS",
    "BPF_CALLS",
    "FCNTL_CALLS",
    "F_NOTIFY",
    "F_SETLEASE",
    "IPC_CALLS",
    "IPC_SHMGET",
    "KEY_CALLS",
    "LOG_CALLS",
    "MAP_HUGETLB",
    "MEMFD_CALLS",
    "MFD_HUGETLB",
    "MMAP_CALLS",
    "NOTIFY_CALLS",
    "OLD_MMAP_CALLS",
    "PERF_CALLS",
    "PRLIMIT_CALLS",
    "RLIMIT_CORE",
    "SECCOMP_CALLS",
    "SECCOMP_FILTER_FLAG_NEW_LISTENER",
    "SECRET_CALLS",
    "SETRLIMIT_CALLS",
    "SETSOCKOPT_CALLS",
    "SHMGET_CALLS",
    "SHM_HUGETLB",
    "SOCKETCALL_CALLS",
    "SOCKET_CALLS",
    "SOCKET_PROGRAM_OPTIONS",
    "SOL_SOCKET",
    "SYNC_CALLS",
    "SYS_SETSOCKOPT",
    "SYS_SOCKET",
    "TRACE_CALLS",
    "UFFD_CALLS",
    "URING_CALLS",
    "X32",
    "CallTable",
]

AF_VSOCK = 40
SYS_SOCKET = 1  # socketcall's first argument when it makes a socket
SYS_SETSOCKOPT = 14  # ... and when it sets a socket's option
SOL_SOCKET = 1  # setsockopt's second argument for the socket's own options
# ... and its third when it attaches a program: SO_ATTACH_FILTER,
# SO_ATTACH_BPF, SO_ATTACH_REUSEPORT_CBPF, SO_ATTACH_REUSEPORT_EBPF (the same
# numbers on x86 and arm).
SOCKET_PROGRAM_OPTIONS = (26, 50, 51, 52)
RLIMIT_CORE = 4  # setrlimit's and prlimit64's resource for the core dump limit
MFD_HUGETLB = 0x4  # memfd_create's flag for a file of huge pages
MAP_HUGETLB = 0x40000  # mmap's flag for huge pages (the same on x86 and arm)
SHM_HUGETLB = 0x800  # shmget's flag for a segment of huge pages
IPC_SHMGET = 23  # i386's ipc call for shmget (its low 16 bits; a version above)
F_NOTIFY = 1026  # fcntl's second argument when it watches a folder (dnotify)
F_SETLEASE = 1024  # ... and when it takes a lease on a file
SECCOMP_FILTER_FLAG_NEW_LISTENER = 0x8  # seccomp's flag (its second argument) for a listener
X32 = 0x40000000  # x32 calls are x86-64's numbers with this bit set

# For each machine, (AUDIT_ARCH of an ABI, that ABI's call numbers) per ABI.
CallTable = dict[str, tuple[tuple[int, tuple[int, ...]], ...]]

# For each machine, every ABI a process on it may call the kernel through (an
# x86-64 bot can still make i386 calls), with that ABI's numbers of add_key,
# request_key and keyctl.
KEY_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (248, 249, 250, X32 | 248, X32 | 249, X32 | 250)),  # x86-64, x32
        (0x40000003, (286, 287, 288)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (217, 218, 219)),  # arm64
        (0x40000028, (309, 310, 311)),  # arm
    ),
}


# inotify_init, inotify_init1 and fanotify_init, ABI by ABI as above (arm64 has
# no inotify_init).
NOTIFY_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (253, 294, 300, X32 | 253, X32 | 294, X32 | 300)),  # x86-64, x32
        (0x40000003, (291, 332, 338)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (26, 262)),  # arm64
        (0x40000028, (316, 360, 367)),  # arm
    ),
}


# io_setup, ABI by ABI as above: x32 has a number of its own (543), and x32's
# 206 (x86-64's io_setup) fails anyway; refused too, in case a kernel takes it.
AIO_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (206, X32 | 206, X32 | 543)),  # x86-64, x32
        (0x40000003, (245,)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (0,)),  # arm64
        (0x40000028, (243,)),  # arm
    ),
}


# ptrace and process_vm_writev, ABI by ABI as above (x32's own numbers, 521
# and 540, and x86-64's, in case a kernel takes them).
TRACE_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (101, 311, X32 | 101, X32 | 311, X32 | 521, X32 | 540)),  # x86-64, x32
        (0x40000003, (26, 348)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (117, 271)),  # arm64
        (0x40000028, (26, 377)),  # arm
    ),
}


# io_uring_setup, io_uring_enter and io_uring_register: the same numbers on
# every ABI (x32's with its bit set).
URING_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (425, 426, 427, X32 | 425, X32 | 426, X32 | 427)),  # x86-64, x32
        (0x40000003, (425, 426, 427)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (425, 426, 427)),  # arm64
        (0x40000028, (425, 426, 427)),  # arm
    ),
}


# userfaultfd, ABI by ABI as above.
UFFD_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (323, X32 | 323)),  # x86-64, x32
        (0x40000003, (374,)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (282,)),  # arm64
        (0x40000028, (388,)),  # arm
    ),
}


# perf_event_open, ABI by ABI as above.
PERF_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (298, X32 | 298)),  # x86-64, x32
        (0x40000003, (336,)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (241,)),  # arm64
        (0x40000028, (364,)),  # arm
    ),
}


# syslog, ABI by ABI as above.
LOG_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (103, X32 | 103)),  # x86-64, x32
        (0x40000003, (103,)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (116,)),  # arm64
        (0x40000028, (103,)),  # arm
    ),
}


# bpf, ABI by ABI as above.
BPF_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (321, X32 | 321)),  # x86-64, x32
        (0x40000003, (357,)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (280,)),  # arm64
        (0x40000028, (386,)),  # arm
    ),
}


# memfd_secret: the same number on every ABI (x32's with its bit set; 32-bit arm
# has none, and its 447 is refused in case a kernel takes it).
SECRET_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (447, X32 | 447)),  # x86-64, x32
        (0x40000003, (447,)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (447,)),  # arm64
        (0x40000028, (447,)),  # arm
    ),
}


# socket, ABI by ABI as above: refused when its family (the first argument) is
# AF_VSOCK.
SOCKET_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (41, X32 | 41)),  # x86-64, x32
        (0x40000003, (359,)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (198,)),  # arm64
        (0x40000028, (281,)),  # arm
    ),
}


# socketcall, where an ABI has it: refused when it makes a socket or sets a
# socket's option (its first argument SYS_SOCKET or SYS_SETSOCKOPT), since
# the family, the level and the option are behind a pointer.
SOCKETCALL_CALLS: CallTable = {
    "x86_64": ((0x40000003, (102,)),),  # i386
    "aarch64": (),  # arm's EABI has no socketcall
}


# fcntl (and fcntl64, where an ABI has it), ABI by ABI as above: refused when
# its command (the second argument) is F_NOTIFY or F_SETLEASE.
FCNTL_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (72, X32 | 72)),  # x86-64, x32
        (0x40000003, (55, 221)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (25,)),  # arm64
        (0x40000028, (55, 221)),  # arm
    ),
}


# setsockopt, ABI by ABI as above: refused when it attaches a program to a
# socket (its level SOL_SOCKET, its option one of SOCKET_PROGRAM_OPTIONS).
# x32's own number is 541; x86-64's, in case a kernel takes it.
SETSOCKOPT_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (54, X32 | 54, X32 | 541)),  # x86-64, x32
        (0x40000003, (366,)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (208,)),  # arm64
        (0x40000028, (294,)),  # arm
    ),
}


# setrlimit, ABI by ABI as above: refused when it sets RLIMIT_CORE (its first
# argument).
SETRLIMIT_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (160, X32 | 160)),  # x86-64, x32
        (0x40000003, (75,)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (164,)),  # arm64
        (0x40000028, (75,)),  # arm
    ),
}


# prlimit64, ABI by ABI as above: refused when it sets RLIMIT_CORE (its second
# argument the resource, its third the new limit, NULL when it only reads).
PRLIMIT_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (302, X32 | 302)),  # x86-64, x32
        (0x40000003, (340,)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (261,)),  # arm64
        (0x40000028, (369,)),  # arm
    ),
}


# seccomp, ABI by ABI as above: refused when its flags (the second argument)
# ask for SECCOMP_FILTER_FLAG_NEW_LISTENER.
SECCOMP_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (317, X32 | 317)),  # x86-64, x32
        (0x40000003, (354,)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (277,)),  # arm64
        (0x40000028, (383,)),  # arm
    ),
}


# memfd_create, ABI by ABI as above: refused when its flags (the second
# argument) ask for huge pages.
MEMFD_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (319, X32 | 319)),  # x86-64, x32
        (0x40000003, (356,)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (279,)),  # arm64
        (0x40000028, (385,)),  # arm
    ),
}


# mmap (mmap2 on 32-bit ABIs), ABI by ABI as above: refused when its flags
# (the fourth argument) ask for huge pages. i386's old mmap, whose arguments
# are behind a pointer, is refused whatever they are (OLD_MMAP_CALLS).
MMAP_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (9, X32 | 9)),  # x86-64, x32
        (0x40000003, (192,)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (222,)),  # arm64
        (0x40000028, (192,)),  # arm
    ),
}
OLD_MMAP_CALLS: CallTable = {"x86_64": ((0x40000003, (90,)),), "aarch64": ()}


# shmget, ABI by ABI as above: refused when its flags (the third argument) ask
# for huge pages; and i386's ipc, when it is a shmget (IPC_SHMGET) whose flags
# (its fourth argument) do.
SHMGET_CALLS: CallTable = {
    "x86_64": (
        (0xC000003E, (29, X32 | 29)),  # x86-64, x32
        (0x40000003, (395,)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (194,)),  # arm64
        (0x40000028, (307,)),  # arm
    ),
}
IPC_CALLS: CallTable = {"x86_64": ((0x40000003, (117,)),), "aarch64": ()}


# sync, syncfs, fsync and fdatasync, ABI by ABI as above: not refused but made
# to do nothing, returning 0 (SECCOMP_RET_ERRNO with errno 0), so that a
# program calling them goes on as if its files were written out.
SYNC_CALLS: CallTable = {
    "x86_64": (
        (
            0xC000003E,
            (162, 306, 74, 75, X32 | 162, X32 | 306, X32 | 74, X32 | 75),
        ),  # x86-64, x32
        (0x40000003, (36, 344, 118, 148)),  # i386
    ),
    "aarch64": (
        (0xC00000B7, (81, 267, 82, 83)),  # arm64
        (0x40000028, (36, 373, 118, 148)),  # arm
    ),
}
