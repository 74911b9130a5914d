/* See stderr_capture.h. */
#include "test/unit/stderr_capture.h"

#include <check.h>
#include <stdlib.h>
#include <unistd.h>

static char pp_test_captured[4096];
static int pp_test_saved_fd = -1, pp_test_cap_fd = -1;

void pp_test_capture_begin(void)
{
    char path[] = "/tmp/pp_test_stderr_XXXXXX";
    pp_test_cap_fd = mkstemp(path);
    ck_assert_int_ge(pp_test_cap_fd, 0);
    unlink(path);
    pp_test_saved_fd = dup(2);
    dup2(pp_test_cap_fd, 2);
}

const char *pp_test_capture_end(void)
{
    dup2(pp_test_saved_fd, 2);
    close(pp_test_saved_fd);
    lseek(pp_test_cap_fd, 0, SEEK_SET);
    ssize_t n = read(pp_test_cap_fd, pp_test_captured, sizeof pp_test_captured - 1);
    pp_test_captured[n < 0 ? 0 : n] = 0;
    close(pp_test_cap_fd);
    return pp_test_captured;
}
