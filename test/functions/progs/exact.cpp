// A filter applied exactly at build time (test_functions_plugin.py): a
// template, a member function, and a function with a lambda inside, each
// left out by name; the others measured.  Every function is noinline, so
// each has its own code to look at, and a measured function's calls never
// end up inside a left-out one.
#include <cstdio>
#include <vector>

namespace geo {

template <typename T>
__attribute__((noinline)) T scale(T x) // left out: a template
{
    return 3 * x;
}

struct Grid {
    std::vector<double> cells;
    __attribute__((noinline)) double cell_sum() const // left out: a member
    {
        double s = 0;
        for (double c : cells)
            s += scale(c);
        return s;
    }
    __attribute__((noinline)) std::size_t size() const // measured
    {
        return cells.size();
    }
};

__attribute__((noinline)) int offset(int x) // measured
{
    return x + 1;
}

// left out, with its lambda: the filter's pattern covers both names
__attribute__((noinline)) int apply_all(std::vector<int> &v)
{
    int n = 0;
    auto bump = [&n](int &x) __attribute__((noinline)) { x = x * 2; n++; };
    for (int &x : v)
        bump(x);
    return n;
}

} // namespace geo

int main()
{
    geo::Grid g{{1.0, 2.0, 3.0}};
    std::vector<int> v = {1, 2, 3, 4};
    long total = 0;
#pragma omp parallel reduction(+ : total)
#pragma omp single
    {
#pragma omp task shared(total)
        total += (long)g.cell_sum() + (long)g.size() + geo::offset(2) + geo::apply_all(v) +
                 geo::scale(5);
#pragma omp taskwait
    }
    std::printf("%ld %d\n", total, v[3]);
    return 0;
}
