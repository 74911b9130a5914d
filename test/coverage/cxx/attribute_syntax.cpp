// OpenMP 5.1 attribute syntax: [[omp::directive(...)]] and [[omp::sequence(...)]].
// pompprof-coverage: measured=parallel,for,single,task
#include <cstdio>

int main()
{
    int a[64];
    long s = 0;
    [[omp::directive(parallel for reduction(+ : s))]]
    for (int i = 0; i < 64; i++) { a[i] = i; s += i; }
    int n = 0;
    [[omp::sequence(directive(parallel), directive(single))]]
    {
        [[omp::directive(task shared(n))]] n += 1;
        [[omp::directive(taskwait)]];
    }
    std::printf("%ld %d %d\n", s, n, a[63]);
    return 0;
}
