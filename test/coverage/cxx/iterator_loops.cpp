// worksharing loops over random-access iterators and range-for.
// pompprof-coverage: measured=parallel,for
#include <cstdio>
#include <vector>

int main()
{
    std::vector<int> v(200);
#pragma omp parallel
    {
#pragma omp for
        for (auto it = v.begin(); it < v.end(); ++it) *it = 3;
#pragma omp for
        for (int &x : v) x += 1;
    }
    long s = 0;
    for (int x : v) s += x;
    std::printf("%ld\n", s);
    return 0;
}
