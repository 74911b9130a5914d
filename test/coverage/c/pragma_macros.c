/* OpenMP that comes from macros (_Pragma), several on one line, inside
 * conditional compilation.
 * pompprof-coverage: measured=parallel,single,task,taskwait */
#include <stdio.h>

#define STR(x) #x
#define OMP(x) _Pragma(STR(omp x))
#define SPAWN(stmt) OMP(task shared(n)) { stmt; }
#define USE_TASKS 1

int main(void)
{
    int n = 0;
    OMP(parallel) OMP(single) {
#if USE_TASKS
        SPAWN(n += 1) SPAWN(n += 2)
#else
        n = -1;
#endif
        OMP(taskwait)
    }
    printf("%d\n", n);
    return 0;
}
