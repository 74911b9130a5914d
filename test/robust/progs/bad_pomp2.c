/* Hand-written POMP2 calls that break the rules OPARI2 follows, then normal
 * instrumented work.  argv[1] picks the abuse; the test checks that the
 * program survives unchanged, the warnings are few, and the normal part is
 * profiled exactly (visit counts, call paths). */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <opari2/pomp2_lib.h>
#include <opari2/pomp2_user_lib.h>

static volatile double sink;
static void work(void)
{
    for (int i = 0; i < 2000; i++)
        sink += i * 0.5;
}

/* An OPARI2-style string with a correct length prefix around fields. */
static char *ctc(const char *fields)
{
    size_t body = strlen(fields) + 3; /* '*' before, "**" after */
    size_t total = body + 1;
    for (int i = 0; i < 3; i++) {
        char d[32];
        total = body + (size_t)snprintf(d, sizeof d, "%zu", total);
    }
    char *s = malloc(total + 1);
    snprintf(s, total + 1, "%zu*%s**", total, fields);
    return s;
}

static POMP2_Region_handle h_user, h_task, h_taskwait, h_crit, h_open;

static void malformed(void)
{
    static POMP2_Region_handle h[12];
    const char *bad[] = {
        "garbage",
        "",
        "5*regionType=critical*sscl=bad.c:1:1*escl=bad.c:2:2**", /* wrong length */
        "*regionType=critical**",                                /* no length */
        "99999999999999999999999*regionType=task**",             /* length overflows */
        NULL,
    };
    char *bad2[] = {
        ctc("regionType=task"),                                    /* no sscl/escl */
        ctc("regionType=frobnicate*sscl=bad.c:1:1*escl=bad.c:2:2"), /* unknown type */
        ctc("regionType=critical*sscl=bad.c:x:1*escl=bad.c:2:2"),   /* bad line */
        ctc("regionType=userRegion*sscl=bad.c:3:3*escl=bad.c:4:4"), /* no name */
        ctc("sscl=bad.c:3:3*escl=bad.c:4:4"),                       /* no type */
        ctc("regionType=critical*sscl=bad.c:9:9*escl=bad.c:5:5*=*"),/* empty key */
    };
    int k = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        POMP2_Assign_handle(&h[k++], bad[i]);
    for (size_t i = 0; i < sizeof bad2 / sizeof bad2[0]; i++)
        POMP2_Assign_handle(&h[k++], bad2[i]);
    /* use them like OPARI2 would: still measured, as "unknown" */
    for (int r = 0; r < 3; r++) {
        for (int i = 0; i < k; i++) {
            POMP2_Critical_enter(&h[i], "garbage");
            POMP2_Critical_begin(&h[i]);
            work();
            POMP2_Critical_end(&h[i]);
            POMP2_Critical_exit(&h[i]);
        }
    }
    /* a malformed string seen first on an enter call, never assigned */
    static POMP2_Region_handle fresh;
    POMP2_Atomic_enter(&fresh, "12*garbage**");
    POMP2_Atomic_exit(&fresh);
    POMP2_USER_Region_handle u = NULL;
    POMP2_Begin(&u, "not a region string");
    POMP2_End(&u);
    for (size_t i = 0; i < sizeof bad2 / sizeof bad2[0]; i++)
        free(bad2[i]);
}

/* Handle slots that were never assigned, on calls that carry no string. */
static void null_slots(void)
{
    for (int r = 0; r < 100; r++) {
        POMP2_Region_handle n1 = NULL, n2 = NULL, n3 = NULL, n4 = NULL;
        POMP2_Critical_begin(&n1);
        POMP2_Critical_end(&n1);
        POMP2_Single_begin(&n2);
        POMP2_Single_end(&n2);
        POMP2_Master_end(&n3);
        POMP2_Task_end(&n4);
        POMP2_Section_end(&n4);
        POMP2_Ordered_begin(&n4);
        POMP2_Ordered_end(&n4);
        POMP2_End(&n4);
    }
}

/* NULL handle pointers: OPARI2 never writes these, a hand-written call might. */
static void null_pointers(void)
{
    POMP2_Task_handle old = 0, nt = 0;
    POMP2_Assign_handle(NULL, "garbage");
    POMP2_Critical_enter(NULL, NULL);
    POMP2_Critical_begin(NULL);
    POMP2_Critical_end(NULL);
    POMP2_Critical_exit(NULL);
    POMP2_Atomic_enter(NULL, NULL);
    POMP2_Atomic_exit(NULL);
    POMP2_Begin(NULL, NULL);
    POMP2_End(NULL);
    POMP2_Taskwait_begin(NULL, &old, NULL);
    POMP2_Taskwait_end(NULL, old);
    POMP2_Task_create_begin(NULL, &nt, &old, 1, NULL);
    POMP2_Task_begin(NULL, nt);
    POMP2_Task_end(NULL);
    POMP2_Task_create_end(NULL, old);
}

static void unbalanced(void)
{
    POMP2_Task_handle old = 0;
    /* exits without enters, far more than there are */
    for (int i = 0; i < 1000; i++) {
        POMP2_End(&h_user);
        POMP2_Critical_end(&h_crit);
        POMP2_Critical_exit(&h_crit);
    }
    /* task end without begin */
    for (int i = 0; i < 100; i++)
        POMP2_Task_end(&h_task);
    /* a task handle the library never handed out */
    POMP2_Task_begin(&h_task, (POMP2_Task_handle)0x123456789abcLL);
    work();
    POMP2_Task_end(&h_task);
    POMP2_Task_begin(&h_task, (POMP2_Task_handle)-1);
    POMP2_Task_end(&h_task);
    /* switch back to a task that does not exist */
    POMP2_Taskwait_begin(&h_taskwait, &old, NULL);
    POMP2_Taskwait_end(&h_taskwait, (POMP2_Task_handle)987654321);
    POMP2_Barrier_exit(&h_taskwait, (POMP2_Task_handle)42);
    POMP2_Implicit_barrier_exit(&h_taskwait, (POMP2_Task_handle)43);
    POMP2_Parallel_end(&h_taskwait);
    /* more exits again, now of regions that exist elsewhere in the tree */
    for (int i = 0; i < 10; i++)
        POMP2_Taskwait_end(&h_taskwait, old);
}

/* The part that must come out exactly: 10 user regions at the top, 5 tasks
 * (undeferred, hand-written as OPARI2 would), one OpenMP parallel region. */
static int normal(void)
{
    for (int i = 0; i < 10; i++) {
        POMP2_Begin(&h_user, NULL);
        work();
        POMP2_End(&h_user);
    }
    for (int i = 0; i < 5; i++) {
        POMP2_Task_handle nt, old;
        POMP2_Task_create_begin(&h_task, &nt, &old, 1, NULL);
        POMP2_Task_begin(&h_task, nt);
        work();
        POMP2_Task_end(&h_task);
        POMP2_Task_create_end(&h_task, old);
    }
    int sum = 0;
#pragma omp parallel reduction(+ : sum)
    {
#pragma omp single
        for (int i = 0; i < 6; i++) {
#pragma omp task
            work();
        }
        sum += 1;
    }
    return sum;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    POMP2_USER_Assign_handle(&h_user, ctc("regionType=userRegion*sscl=bad_pomp2.c:1:1*"
                                          "escl=bad_pomp2.c:2:2*userRegionName=good_user"));
    POMP2_Assign_handle(&h_task, ctc("regionType=task*sscl=bad_pomp2.c:3:3*"
                                     "escl=bad_pomp2.c:4:4*hasShared=1"));
    POMP2_Assign_handle(&h_taskwait, ctc("regionType=taskwait*sscl=bad_pomp2.c:5:5*"
                                         "escl=bad_pomp2.c:5:5"));
    POMP2_Assign_handle(&h_crit, ctc("regionType=critical*sscl=bad_pomp2.c:6:6*"
                                     "escl=bad_pomp2.c:7:7*criticalName=good_crit"));
    POMP2_USER_Assign_handle(&h_open, ctc("regionType=userRegion*sscl=bad_pomp2.c:8:8*"
                                          "escl=bad_pomp2.c:9:9*userRegionName=left_open"));
    if (!strcmp(mode, "malformed"))
        malformed();
    else if (!strcmp(mode, "null_slots"))
        null_slots();
    else if (!strcmp(mode, "null_pointers"))
        null_pointers();
    else if (!strcmp(mode, "unbalanced"))
        unbalanced();
    else if (strcmp(mode, "none")) {
        fprintf(stderr, "usage: bad_pomp2 malformed|null_slots|null_pointers|unbalanced|none\n");
        return 2;
    }
    int sum = normal();
    if (!strcmp(mode, "unbalanced"))
        POMP2_Begin(&h_open, NULL); /* never ended: open at exit */
    printf("%s done, threads %d\n", mode, sum);
    return 0;
}
