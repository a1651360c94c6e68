# expect: WA
# threat: (1) read the zygote's memory with process_vm_readv(2) through ctypes. After fork the
#   child knows the zygote's address layout exactly, so it reads back the zygote's copy of an
#   object at the same address.
# why: seccomp denies process_vm_readv (and process_vm_writev) with EPERM; the call returns -1 and
#   the solution returns 0 (WA). Any byte read raises "LEAK" (RE).
import ctypes
import os

NR_PROCESS_VM_READV = {"x86_64": 310, "aarch64": 270}[os.uname().machine]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


class IOVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


class Vault:
    def open(self, seed):
        target = os.__dict__  # an object that exists at the same address in the zygote
        buffer = ctypes.create_string_buffer(64)
        local = IOVec(ctypes.cast(buffer, ctypes.c_void_p), 64)
        remote = IOVec(id(target), 64)
        got = libc.syscall(NR_PROCESS_VM_READV, os.getppid(), ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)
        if got > 0:
            raise RuntimeError(f"LEAK: read {got} bytes of the zygote's memory")
        return 0
