/* The main of every Check test program (test/unit, test/robust): the
 * program's test file builds its suite in pp_check_suite(), and this runs it
 * with Check's normal output (each failure, then a summary line).  Timeouts
 * come from the test cases and CK_DEFAULT_TIMEOUT (set by make check). */
#include <check.h>
#include <stdlib.h>

/* Defined by the test file of each program. */
Suite *pp_check_suite(void);

int main(void)
{
    SRunner *sr = srunner_create(pp_check_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
