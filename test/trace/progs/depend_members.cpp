// C++ list items: a member through this, a section of a member array, a
// reference (its referent), an iterator, and a call in an item (not evaluated
// twice: recorded unknown, with a note).  Expected items as in depend_items.c.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

static std::FILE *items;
static int task;

static void expect(const void *addr, std::size_t size, int kind)
{
    if (items)
        std::fprintf(items, "%d %llu %llu %d\n", task,
                     (unsigned long long)(std::uintptr_t)addr, (unsigned long long)size, kind);
}

static int twice(int k)
{
    return 2 * k;
}

struct Grid {
    double cells[4][4];
    int n;
    void run()
    {
        expect(&cells[1][0], 4 * sizeof(double), 2);
        expect(&this->n, sizeof n, 3);
#pragma omp task depend(out: cells[1][0:4]) depend(inout: this->n)
        {
            cells[1][0] = 1;
            n++;
        }
        task++;
    }
};

int main()
{
    const char *path = std::getenv("DEPEND_ITEMS");
    items = path ? std::fopen(path, "w") : nullptr;
    Grid g{};
    int a[8] = {0};
    int &r = a[2];
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        g.run();
        expect(&a[2], sizeof(int), 2);
#pragma omp task depend(out: r)
        r = 5;
        task++;
        for (int k = 0; k < 8; k += 3)
            expect(&a[k], sizeof(int), 1);
#pragma omp task depend(iterator(k = 0:8:3), in: a[k])
        a[7] = a[0] + 1;
        task++;
        expect(nullptr, 0, 6);
#pragma omp task depend(in: a[twice(1)])
        std::printf("a2=%d\n", a[2]);
    }
    if (items)
        std::fclose(items);
    std::printf("n=%d a7=%d\n", g.n, a[7]);
    return 0;
}
