# test/gomp: gcc and gfortran binaries measured on libgomp through the
# interposer (libpompprof_gomp.so, pompprof run), compared with the rebuild
# by the pompprof wrapper; the comparison of two event sources (sources.py)
# and the launcher.
GOMP_TESTS = test/gomp/test_gomp_equal.py test/gomp/test_gomp_launcher.py \
	test/gomp/test_gomp_api.py test/gomp/test_tail_calls.py test/gomp/test_gomp_dlopen.py
TESTS += $(GOMP_TESTS)
EXTRA_DIST += $(GOMP_TESTS) test/gomp/sources.py test/gomp/progs/singles.c \
	test/gomp/progs/sections.c test/gomp/progs/taskloop_red.c test/gomp/progs/fibtail.c \
	test/gomp/progs/nested.c test/gomp/progs/locks.c test/gomp/progs/fortran.f90 \
	test/gomp/progs/exits.c test/gomp/progs/nothing.c test/gomp/progs/scan.c \
	test/gomp/progs/serial.c test/gomp/progs/mix.c test/gomp/progs/taskflags.c \
	test/gomp/progs/legacy.c test/gomp/progs/task_red.c \
	test/gomp/progs/exit_in_task.c test/gomp/progs/plugin.c test/gomp/progs/plugin_host.c \
	test/gomp/progs/plugin_threads.c
