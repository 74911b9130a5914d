/* task dependences: in, out, inout, mutexinoutset, iterators, depobj objects,
 * and taskwait with depend.
 * pompprof-coverage: measured=parallel,single,task,taskwait */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int x = 0, y = 0, z = 0, arr[4] = {0};
    omp_depend_t obj;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out: x) shared(x)
        x = 1;
#pragma omp task depend(in: x) depend(out: y) shared(x, y)
        y = x + 1;
#pragma omp task depend(inout: y) shared(y)
        y *= 10;
#pragma omp task depend(mutexinoutset: z) shared(z)
        z += 1;
#pragma omp task depend(mutexinoutset: z) shared(z)
        z += 2;
        for (int i = 0; i < 4; i++) {
#pragma omp task depend(out: arr[i]) shared(arr) firstprivate(i)
            arr[i] = i + 1;
        }
#pragma omp task depend(iterator(k = 0:4), in: arr[k]) depend(inout: z) shared(arr, z)
        z += arr[0] + arr[1] + arr[2] + arr[3];
#pragma omp depobj(obj) depend(inout: x)
#pragma omp task depend(depobj: obj) shared(x)
        x += 100;
#pragma omp depobj(obj) update(in)
#pragma omp depobj(obj) destroy
#pragma omp taskwait depend(in: y)
        y += 0;
#pragma omp taskwait
    }
    printf("%d %d %d\n", x, y, z);
    return 0;
}
