// tasks and parallel regions in lambdas and member functions, class members in
// data-sharing clauses.
// pompprof-coverage: measured=parallel,single,task,taskwait,for
#include <cstdio>
#include <functional>

class Accumulator {
    long total = 0;
    int step = 3;

public:
    long run(int n)
    {
#pragma omp parallel for firstprivate(step) reduction(+ : total)
        for (int i = 0; i < n; i++) total += step;
        return total;
    }
};

int main()
{
    auto work = [](int n) {
        int r = 0;
#pragma omp parallel
#pragma omp single
        {
            for (int i = 0; i < n; i++) {
#pragma omp task shared(r)
                {
#pragma omp atomic
                    r += 1;
                }
            }
#pragma omp taskwait
        }
        return r;
    };
    std::function<int(int)> f = work;
    Accumulator acc;
    std::printf("%d %ld\n", f(10), acc.run(10));
    return 0;
}
