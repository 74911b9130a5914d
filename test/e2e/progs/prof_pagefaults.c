/* Counter ground truth: every task maps `pages` fresh anonymous pages and
 * touches each once, so it takes exactly that many page faults (huge pages
 * are declined, so one fault per page).  Usage: prof_pagefaults TASKS PAGES */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static long touch_fresh_pages(long pages, long page_size)
{
    char *p = mmap(NULL, (size_t)(pages * page_size), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return -1;
#ifdef MADV_NOHUGEPAGE
    madvise(p, (size_t)(pages * page_size), MADV_NOHUGEPAGE);
#endif
    long sum = 0;
    for (long i = 0; i < pages; i++) {
        p[i * page_size] = 1;
        sum += p[i * page_size] != 0;
    }
    munmap(p, (size_t)(pages * page_size));
    return sum;
}

int main(int argc, char **argv)
{
    long tasks = argc > 1 ? atol(argv[1]) : 16;
    long pages = argc > 2 ? atol(argv[2]) : 256;
    long page_size = sysconf(_SC_PAGESIZE);
    long touched = 0, failed = 0;
#pragma omp parallel
    {
#pragma omp single
        for (long i = 0; i < tasks; i++) {
#pragma omp task shared(touched, failed)
            {
                long n = touch_fresh_pages(pages, page_size);
#pragma omp atomic
                touched += n > 0 ? n : 0;
#pragma omp atomic
                failed += n < 0;
            }
        }
    }
    printf("%ld tasks, %ld pages touched, %ld failed\n", tasks, touched, failed);
    return failed != 0;
}
