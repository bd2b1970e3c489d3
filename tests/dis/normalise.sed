# tests/dis/normalise.sed — strips from `beamlet dis` output what changes from run to run or
# from machine to machine, so that what remains is the loaded code itself (sed -E -f).
# Function headers: the CodeInfo's address.
s/ header @0x[0-9a-f]+: / header @ADDR: /
# JIT section title: the host architecture (x86-64 or AArch64).
s/^;; JIT patch sites \((x86-64|AArch64)\)$/;; JIT patch sites (ARCH)/
# JIT patch sites: the native entry's address and its bytes (x86-64: a9/e8 + rel32 to the
# trampoline, AArch64: two fixed words) — keep only armed or disarmed.
s/: 0x[0-9a-f]+:( [0-9a-f]{2})+  (armed|disarmed)$/: SITE  \2/
# JIT flag-byte entries: the flag's address.
s/: flag byte (0x[0-9a-f]+|\(nil\)): /: flag byte ADDR: /
# Terms that name run-time objects, should a literal or a future line ever print one.
s/<[0-9]+\.[0-9]+\.[0-9]+>/<PID>/g
s/#(Ref|Port)<[0-9.]+>/#\1<N>/g
