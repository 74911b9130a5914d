// parallel regions in function and class templates (OPARI2's copyin(pomp_tpd)
// of an extern threadprivate variable fails there with g++).
// pompprof-coverage: measured=parallel,for,single
#include <cstdio>
#include <vector>

template <typename T> T sum(const std::vector<T> &v)
{
    T s = T();
#pragma omp parallel for reduction(+ : s)
    for (long i = 0; i < (long)v.size(); i++) s += v[i];
    return s;
}

template <typename T> struct Counter {
    T value{};
    void count(int n)
    {
#pragma omp parallel
#pragma omp single
        value = static_cast<T>(n);
    }
};

int main()
{
    std::vector<int> vi(100, 2);
    std::vector<double> vd(10, 0.5);
    Counter<long> c;
    c.count(7);
    std::printf("%d %g %ld\n", sum(vi), sum(vd), c.value);
    return 0;
}
