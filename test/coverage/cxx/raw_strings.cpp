// raw string literals that contain text looking like directives and braces.
// pompprof-coverage: measured=parallel,master
#include <cstdio>
#include <cstring>

int main()
{
    const char *text = R"x(
#pragma omp parallel
{ not code }
)x";
    int n = 0;
#pragma omp parallel
#pragma omp master
    n = (int)std::strlen(text);
    std::printf("%d\n", n);
    return 0;
}
