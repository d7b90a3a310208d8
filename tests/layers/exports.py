#!/usr/bin/env python3
"""exports.py LIB HEADER CC -- fails when libscopa.so exports a name that
scopa.h does not declare, or lacks a function scopa.h declares.

scopa.h says "anything not declared here is not API"; the library is
compiled with hidden visibility and scopa.h's declarations are pushed to
default visibility, so the two lists must be equal.  The declared names
are read from the header as the compiler sees it (CC -E -P: no comments,
no macros), every identifier that opens a parameter list; the exported
ones are the dynamic symbols the library defines (nm -D --defined-only).
"""
import re
import subprocess
import sys


def declared(header, cc):
    text = subprocess.run([cc, "-E", "-P", "-x", "c", header],
                          check=True, capture_output=True, text=True).stdout
    # Function declarations: a name followed by "(" (a pointer to a
    # function, "(*name)(", has ")" after its name and is not matched).
    return set(re.findall(r"\b(scopa_\w+)\s*\(", text))


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        # Only the library's code and data; the linker's own markers
        # (_init, _fini, __bss_start, _edata, _end) are absolute or
        # section symbols of every shared object.
        if len(parts) == 3 and parts[1] in "TtDdBbRrVvWwiu":
            if parts[2] in ("_init", "_fini"):
                continue
            names.add(parts[2])
    return names


def main():
    lib, header, cc = sys.argv[1:4]
    want, have = declared(header, cc), exported(lib)
    extra, missing = sorted(have - want), sorted(want - have)
    for name in extra:
        print("exported but not in scopa.h: %s" % name)
    for name in missing:
        print("in scopa.h but not exported: %s" % name)
    print("%d names exported, %d declared" % (len(have), len(want)))
    return 1 if extra or missing else 0


if __name__ == "__main__":
    sys.exit(main())
