// user-defined reductions over C++ types (declare reduction with std::vector).
// pompprof-coverage: measured=parallel,for
#include <algorithm>
#include <cstdio>
#include <vector>

#pragma omp declare reduction(vplus : std::vector<int> : \
    omp_out.resize(omp_in.size() > omp_out.size() ? omp_in.size() : omp_out.size()), \
    std::transform(omp_in.begin(), omp_in.end(), omp_out.begin(), omp_out.begin(), \
                   [](int a, int b) { return a + b; })) \
    initializer(omp_priv = std::vector<int>(omp_orig.size(), 0))

int main()
{
    std::vector<int> hist(4, 0);
#pragma omp parallel for reduction(vplus : hist)
    for (int i = 0; i < 100; i++) hist[i % 4] += 1;
    std::printf("%d %d %d %d\n", hist[0], hist[1], hist[2], hist[3]);
    return 0;
}
