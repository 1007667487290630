# `make help`: every target of the makefiles (Makefile, tests/soak.mk, boards/boards.mk,
# tools/bench.mk, labs/labs.mk, user/user.mk and this one), one line each.
# tests/test_make_help.py checks that the list and the makefiles name the same targets:
# a new target needs its line here. Included last by the top-level Makefile.
define HELP_TEXT
make TARGET [VARIABLE=value ...]   (README.md, "Variables", lists the variables)

Build and run
  all                  the kernel image and its program archive (what `make` alone builds)
  deps                 install the Debian packages the build and the tests need (tools/deps.sh)
  run                  boot the image in QEMU on this terminal (SMP=, CONSOLE=, INIT=, ICOUNT=, ...)
  debug                run, halted with a GDB stub on :1234, and attach gdb-multiarch
  format               clang-format every C file git knows
  clean                remove build/
Boards
  image                BOARD's SD card image (FORMAT=sd) or Android boot image (FORMAT=android)
  run-uboot            boot that SD card image through U-Boot in QEMU
Tests
  test                 the host unit tests' build, then the whole pytest suite (PYTEST_ARGS=)
  test-loaded          the suite (or TESTS=...) beside LOAD busy-loop CPU hogs (default 2)
  test-suite           the pytest suite alone, nothing built first (JOBS=, TESTS=, PYTEST_ARGS=)
  check-host-build     build the host unit tests (tests/host/)
  check-host           build and run the host unit tests
  soak                 the long reliability and typed-byte flood tests
  soak-fuzz            fuzzed system calls for hours on 1, 4 and 8 harts (SOAK_FUZZ_CALLS=)
  model                check the async TX protocol's Spin model (MODEL_FLAGS=)
  qemu-backports       fetch QEMU 10 and OpenSBI 1.5 from bookworm-backports into build/
Benchmark and tracing
  bench                the console benchmark on every backend and the Linux peer, into results/
  docs-numbers         the full benchmark, its report and plots copied into docs/numbers/
  sweep                the benchmark over baud x FIFO x harts x write size (SWEEP=quick)
  peer-build           the Linux peer's kernel and initramfs, in build/linux-peer/
  peer                 the same benchmark sections on Duplex and on the Linux peer, one hart
  timeline             draw one traced write per backend into build/timeline/ (SIZE=, CONSOLE=)
Labs
  labs                 list the graded labs
  lab-start            branch lab/NAME from HEAD with the lab's functions emptied (LAB=NAME)
  grade                build and grade a lab, print the score table (LAB=NAME)
  lab-results          rewrite docs/teaching/results.md from every lab's runs
  lab-export           a student repository, every lab at its start (DIR=PATH)
  handin               in a student repository: grade and bundle the changes into handin.tar.gz
  grade-handin         the teacher's grade of a hand-in (BUNDLE=FILE)
Helpers other targets use
  extra-programs-list  rewrite the EXTRA_PROGRAMS list file when the list changes
  bench-build-id       rewrite bench's build id header when the commit changes
  help                 this list
endef
export HELP_TEXT

help:
	@echo "$$HELP_TEXT"

.PHONY: help
