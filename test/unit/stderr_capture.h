/* The Check tests' capture of what the code under test writes to stderr
 * (its pompprof: lines): begin redirects fd 2 to an unlinked temporary
 * file, end restores it and returns what was written (at most 4 KiB, NUL
 * terminated, valid until the next capture). */
#ifndef PP_TEST_STDERR_CAPTURE_H
#define PP_TEST_STDERR_CAPTURE_H

void pp_test_capture_begin(void);
const char *pp_test_capture_end(void);

#endif
