// taskloop and taskgroup in C++ with if constexpr and templates.
// pompprof-coverage: measured=parallel,single,taskloop,taskgroup,task notes=taskloop
#include <cstdio>

template <bool Big> long work(int n)
{
    long s = 0;
    if constexpr (Big) {
#pragma omp taskloop reduction(+ : s) grainsize(8)
        for (int i = 0; i < n; i++) s += i;
    } else {
#pragma omp taskgroup
        {
#pragma omp task shared(s)
            s = n;
        }
    }
    return s;
}

int main()
{
    long a = 0, b = 0;
#pragma omp parallel
#pragma omp single
    {
        a = work<true>(100);
        b = work<false>(5);
    }
    std::printf("%ld %ld\n", a, b);
    return 0;
}
