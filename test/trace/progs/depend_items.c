/* The list items the wrapper records, against the addresses and sizes the
 * program computes itself: each task's expected items go to the file named
 * by DEPEND_ITEMS ("task address size kind" lines, creation order), written
 * before the task is created.  Members through a pointer, a 2-D section, a
 * section with its length omitted, an element, iterator (two iterators),
 * depobj, and two items with side effects (not evaluated twice: the program
 * prints i, which must stay 1). */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct cell {
    double v[6];
    int n;
};

static FILE *items;
static int task;

static void expect(const void *addr, size_t size, int kind)
{
    if (items)
        fprintf(items, "%d %llu %llu %d\n", task, (unsigned long long)(uintptr_t)addr,
                (unsigned long long)size, kind);
}

int main(void)
{
    const char *path = getenv("DEPEND_ITEMS");
    items = path ? fopen(path, "w") : NULL;
    struct cell c = {{0}, 0}, *p = &c;
    double m[4][5] = {{0}};
    int a[10] = {0}, i = 0;
    omp_depend_t o;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        expect(&p->n, sizeof p->n, 2);
        expect(&p->v[1], sizeof(double), 1);
#pragma omp task depend(out: p->n) depend(in: p->v[1])
        p->n = 1;
        task++;
        expect(&m[1][2], (size_t)((char *)&m[2][3] - (char *)&m[1][2]) + sizeof(double), 3);
        expect(&a[4], 6 * sizeof(int), 1);
#pragma omp task depend(inout: m[1:2][2:2]) depend(in: a[4:])
        m[1][2] += 1;
        task++;
        for (int x = 0; x < 2; x++)
            for (int y = 1; y < 3; y++)
                expect(&m[x][y], sizeof(double), 1);
#pragma omp task depend(iterator(int x = 0:2, y = 1:3), in: m[x][y])
        m[3][3] = 1;
        task++;
#pragma omp depobj(o) depend(inout: a[7])
        expect(&a[7], sizeof(int), 3);
        expect(&c, sizeof c, 1);
#pragma omp task depend(depobj: o) depend(in: c)
        a[7]++;
        task++;
        expect(NULL, 0, 6); /* not recorded: a[i++] */
        expect(&a[1], sizeof(int), 2);
#pragma omp task depend(in: a[i++]) depend(out: a[1])
        a[1] = 2;
#pragma omp taskwait
#pragma omp depobj(o) destroy
    }
    if (items)
        fclose(items);
    printf("i=%d a1=%d a7=%d n=%d\n", i, a[1], a[7], c.n);
    return 0;
}
