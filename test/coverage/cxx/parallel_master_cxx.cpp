// combined constructs in C++: parallel master taskloop, parallel for simd,
// parallel loop, with class objects in clauses.
// pompprof-coverage: measured=parallel,master,taskloop,for notes=taskloop,loop
#include <cstdio>
#include <vector>

int main()
{
    std::vector<int> v(64, 1);
    long s = 0, t = 0, u = 0;
#pragma omp parallel master taskloop reduction(+ : s) num_threads(2)
    for (int i = 0; i < 64; i++) s += v[i];
#pragma omp parallel for simd reduction(+ : t)
    for (int i = 0; i < 64; i++) t += v[i] * 2;
#pragma omp parallel loop reduction(+ : u)
    for (int i = 0; i < 64; i++) u += v[i] * 3;
    std::printf("%ld %ld %ld\n", s, t, u);
    return 0;
}
