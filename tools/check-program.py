#!/usr/bin/env python3
"""Check that files can run on Duplex as programs: static riscv64 ELF executables.

    tools/check-program.py FILE...

user/user.mk runs it on every file of EXTRA_PROGRAMS before packing them into the program
archive. Duplex loads ELF64 little-endian RISC-V executables of type ET_EXEC with PT_LOAD
segments and nothing else (kernel/proc/elf.c): no dynamic loader (PT_INTERP), no
position-independent executables (ET_DYN, what -static-pie makes). For each file that
does not qualify it prints one line saying why and how to fix it, and exits 1.
ELF layout: System V gABI ch. 4-5; EM_RISCV (243) from the RISC-V psABI.
"""

import struct
import sys
from pathlib import Path

ET_EXEC, ET_DYN, EM_RISCV = 2, 3, 243
PT_LOAD, PT_DYNAMIC, PT_INTERP = 1, 2, 3
HEADER = struct.Struct("<16sHHIQQQIHHHHHH")  # Elf64_Ehdr
PROGRAM_HEADER = struct.Struct("<IIQQQQQQ")  # Elf64_Phdr


def problem(path):
    """Why `path` cannot run on Duplex, or None if it can."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        return f"cannot read it ({error.strerror})"
    if len(data) < HEADER.size or data[:4] != b"\x7fELF":
        return "not an ELF file"
    (ident, kind, machine, _version, _entry, phoff, _shoff, _flags, _ehsize, phentsize,
     phnum, _shentsize, _shnum, _shstrndx) = HEADER.unpack_from(data)
    if ident[4] != 2 or ident[5] != 1:
        return "not a 64-bit little-endian ELF file"
    if machine != EM_RISCV:
        return f"built for another machine (e_machine {machine}, riscv64 is {EM_RISCV})"
    if phentsize != PROGRAM_HEADER.size or phnum == 0 or phoff + phnum * phentsize > len(data):
        return "malformed program headers"
    loads = 0
    for i in range(phnum):
        segment_type = PROGRAM_HEADER.unpack_from(data, phoff + i * phentsize)[0]
        if segment_type == PT_INTERP:
            return "dynamically linked (it asks for a dynamic loader): link with -static"
        if segment_type == PT_DYNAMIC:
            return "dynamically linked (it has a PT_DYNAMIC segment): link with -static"
        loads += segment_type == PT_LOAD
    if kind == ET_DYN:
        return ("position-independent (ET_DYN, what -static-pie makes): link with -static "
                "-no-pie")
    if kind != ET_EXEC:
        return f"not an executable (e_type {kind})"
    if loads == 0:
        return "no loadable segment"
    return None


def main(paths):
    if not paths:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    bad = 0
    for path in paths:
        why = problem(path)
        if why:
            print(f"{path}: not a static riscv64 executable: {why}", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
