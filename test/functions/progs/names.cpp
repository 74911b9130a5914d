// C++ names in the profile: a namespace, a class with a member function, a
// template instantiated twice, a lambda, an overloaded function, and the
// standard library (std::vector, std::sort), which is never instrumented.
#include <algorithm>
#include <cstdio>
#include <vector>

namespace geo {
struct Box {
    int w;
    int area(int h) const { return w * h; } // line 11
};

template <typename T>
T twice(T x) // line 15
{
    return x + x;
}

int pick(int x) { return x; } // line 20
double pick(double x) { return x; } // line 21
} // namespace geo

int main()
{
    std::vector<int> v = {3, 1, 2};
    long sum = 0;
#pragma omp parallel reduction(+ : sum)
    {
#pragma omp single
        {
#pragma omp task shared(sum)
            {
                auto add = [&](int x) { return x + geo::twice(x); }; // line 34
                geo::Box b{2};
                sum += add(b.area(3)) + geo::twice(1.5) + geo::pick(1) + (long)geo::pick(2.0);
            }
        }
    }
    std::sort(v.begin(), v.end());
    std::printf("%ld %d\n", sum, v[0]);
    return 0;
}
