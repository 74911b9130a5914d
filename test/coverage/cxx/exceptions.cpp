// exceptions thrown and caught inside parallel regions and tasks.
// pompprof-coverage: measured=parallel,single,task
#include <cstdio>
#include <stdexcept>

static int risky(int i)
{
    if (i % 3 == 0) throw std::runtime_error("multiple of three");
    return i;
}

int main()
{
    int caught = 0, sum = 0;
#pragma omp parallel reduction(+ : caught)
    {
        try {
            risky(0);
        } catch (const std::exception &) {
            caught += 1;
        }
#pragma omp single
        for (int i = 1; i <= 9; i++) {
#pragma omp task shared(sum)
            {
                try {
                    int v = risky(i);
#pragma omp atomic
                    sum += v;
                } catch (...) {
                }
            }
        }
    }
    std::printf("%d %d\n", caught > 0, sum);
    return 0;
}
