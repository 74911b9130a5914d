/* __LINE__, __FILE__ and assert messages are as in a plain build, also after
 * #include <omp.h> and inside parallel regions.
 * pompprof-coverage: measured=parallel,single */
#include <omp.h>
#include <assert.h>
#include <stdio.h>

int main(void)
{
    int line = __LINE__;
#pragma omp parallel
#pragma omp single
    printf("%s:%d %d\n", __FILE__, line, __LINE__);
    assert(line > 0);
    return 0;
}
