/* health: a simulation in the style of the BOTS "health" benchmark (the
 * Colombian health system): a tree of villages, each with a hospital; every
 * time step, each village's sub-villages are simulated as tasks, patients
 * arrive, wait, are treated and are sent up the tree when the hospital
 * cannot treat them.  Many small functions (list handling, random numbers,
 * checks) are called per patient and step: the case for a function filter.
 *
 * usage: health [levels] [steps]   (default 4 levels of 4 villages, 60 steps) */
#include <stdio.h>
#include <stdlib.h>

#define BRANCH 4

typedef struct patient {
    int id, time_left, hops;
    struct patient *next;
} patient;

typedef struct village {
    struct village *sub[BRANCH];
    int nsub, level;
    unsigned seed;
    patient *waiting, *treating, *up; /* up: sent to the parent this step */
    int free_staff;
    long treated;
} village;

static unsigned next_random(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (*seed >> 16) & 0x7fff;
}

static void push(patient **list, patient *p)
{
    p->next = *list;
    *list = p;
}

static patient *pop(patient **list)
{
    patient *p = *list;
    if (p)
        *list = p->next;
    return p;
}

static int needs_transfer(village *v, patient *p)
{
    return v->level > 0 && next_random(&v->seed) % 10 < 2 && p->hops < 3;
}

static void arrive(village *v, int step)
{
    if (next_random(&v->seed) % 3 == 0) {
        patient *p = malloc(sizeof *p);
        p->id = step, p->time_left = 3 + (int)(next_random(&v->seed) % 5), p->hops = 0;
        push(&v->waiting, p);
    }
}

static void treat(village *v)
{
    patient **link = &v->treating;
    while (*link) {
        patient *p = *link;
        if (--p->time_left == 0) {
            *link = p->next;
            free(p);
            v->treated++;
            v->free_staff++;
        } else {
            link = &p->next;
        }
    }
    patient *p;
    while (v->free_staff > 0 && (p = pop(&v->waiting))) {
        if (needs_transfer(v, p)) {
            p->hops++;
            push(&v->up, p);
        } else {
            v->free_staff--;
            push(&v->treating, p);
        }
    }
}

static void simulate(village *v, int step)
{
    for (int i = 0; i < v->nsub; i++) {
#pragma omp task firstprivate(i)
        simulate(v->sub[i], step);
    }
#pragma omp taskwait
    /* patients the sub-villages send up wait here */
    for (int i = 0; i < v->nsub; i++) {
        patient *p;
        while ((p = pop(&v->sub[i]->up)))
            push(&v->waiting, p);
    }
    arrive(v, step);
    treat(v);
}

static village *build(int level, unsigned seed)
{
    village *v = calloc(1, sizeof *v);
    v->level = level, v->seed = seed, v->free_staff = 2 + level;
    if (level > 0)
        for (v->nsub = 0; v->nsub < BRANCH; v->nsub++)
            v->sub[v->nsub] = build(level - 1, seed * 31 + (unsigned)v->nsub + 1);
    return v;
}

static long total(village *v)
{
    long t = v->treated;
    for (int i = 0; i < v->nsub; i++)
        t += total(v->sub[i]);
    return t;
}

int main(int argc, char **argv)
{
    int levels = argc > 1 ? atoi(argv[1]) : 4;
    int steps = argc > 2 ? atoi(argv[2]) : 60;
    village *top = build(levels, 1);
#pragma omp parallel
#pragma omp single
    for (int s = 0; s < steps; s++)
        simulate(top, s);
    printf("treated %ld patients\n", total(top));
    return 0;
}
