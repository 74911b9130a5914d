/* Unit tests of the POMP2 adapter against a recording fake engine: which
 * engine regions each construct gets (names, roles, lines), the event
 * sequence of each POMP2 call, lazy handle assignment under a race, and
 * graceful handling of malformed strings and unassigned handles.
 * Region strings are ones OPARI2 2.0.7 generated. */
#include <check.h>
#include <omp.h>
#include <opari2/pomp2_lib.h>
#include <opari2/pomp2_user_lib.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test/unit/pomp2/pp_fake_profile.h"
#define POMPPROF_INSTRUMENTED 1
#include "pomp2/pompprof.h"

extern __thread int64_t pomp_tpd;

/* ---- helpers -------------------------------------------------------------- */

static char pp_test_err[16384];
static int pp_test_saved_fd = -1, pp_test_cap_fd = -1;
static char pp_test_cap_path[64];

static void pp_test_capture_begin(void)
{
    strcpy(pp_test_cap_path, "/tmp/pp_test_stderr_XXXXXX");
    pp_test_cap_fd = mkstemp(pp_test_cap_path);
    ck_assert_int_ge(pp_test_cap_fd, 0);
    pp_test_saved_fd = dup(STDERR_FILENO);
    dup2(pp_test_cap_fd, STDERR_FILENO);
}

static const char *pp_test_capture_end(void)
{
    dup2(pp_test_saved_fd, STDERR_FILENO);
    close(pp_test_saved_fd);
    lseek(pp_test_cap_fd, 0, SEEK_SET);
    ssize_t n = read(pp_test_cap_fd, pp_test_err, sizeof pp_test_err - 1);
    pp_test_err[n < 0 ? 0 : n] = '\0';
    close(pp_test_cap_fd);
    unlink(pp_test_cap_path);
    return pp_test_err;
}

static int pp_test_count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static const pp_region_def *pp_test_region(pp_region_id id)
{
    ck_assert_int_lt((int)id, pp_fake_n_regions);
    return &pp_fake_regions[id];
}

/* Check a defined region by name: role, file, lines, paradigm. */
static pp_region_id pp_test_expect_region(const char *name, const char *role, const char *file,
                                          int begin, int end)
{
    pp_region_id id = pp_fake_region_by_name(name);
    ck_assert_msg(id != PP_REGION_INVALID, "region \"%s\" not defined", name);
    const pp_region_def *d = pp_test_region(id);
    ck_assert_str_eq(d->role, role);
    if (file)
        ck_assert_str_eq(d->file, file);
    ck_assert_int_eq(d->begin_line, begin);
    ck_assert_int_eq(d->end_line, end);
    return id;
}

static void pp_test_expect_event(int i, pp_fake_kind kind, pp_region_id region)
{
    ck_assert_int_lt(i, pp_fake_n_events);
    ck_assert_int_eq(pp_fake_events[i].kind, kind);
    if (region != PP_REGION_INVALID)
        ck_assert_uint_eq(pp_fake_events[i].region, region);
}

static void pp_test_setup(void)
{
    POMP2_Init(); /* regions of the lock wrappers etc. exist from here on */
    pp_fake_reset_events();
}

/* POMP2_Init_regions as OPARI2's link step would generate it: the adapter
 * calls it during initialization (its Assign_handle calls re-enter the
 * adapter while it initializes). */
static POMP2_Region_handle pp_test_init_slot;
#define PP_TEST_INIT_CTC \
    "80*regionType=taskwait*sscl=/tmp/x/all/all.c:77:77*escl=/tmp/x/all/all.c:77:77**"
void POMP2_Init_regions(void)
{
    POMP2_Assign_handle(&pp_test_init_slot, PP_TEST_INIT_CTC);
}

/* ---- tests ------------------------------------------------------------------ */

START_TEST(init_calls_generated_init_regions)
{
    ck_assert_ptr_null(pp_test_init_slot);
    POMP2_Init();
    ck_assert_ptr_nonnull(pp_test_init_slot);
    pp_test_expect_region("!$omp taskwait @all.c:77", "taskwait", "/tmp/x/all/all.c", 77, 77);
    /* initialization happened once: one engine init */
    int inits = 0;
    for (int i = 0; i < pp_fake_n_events; i++)
        inits += pp_fake_events[i].kind == PP_FAKE_INIT;
    ck_assert_int_eq(inits, 1);
    POMP2_Init();
    inits = 0;
    for (int i = 0; i < pp_fake_n_events; i++)
        inits += pp_fake_events[i].kind == PP_FAKE_INIT;
    ck_assert_int_eq(inits, 1);
}
END_TEST

START_TEST(parallel_region_events)
{
    pp_test_setup();
    static POMP2_Region_handle h;
    const char *ctc = "76*regionType=parallel*sscl=/tmp/x/tasks.c:20:20*escl=/tmp/x/tasks.c:33:33**";
    POMP2_Task_handle old = 0;
    pp_fake_current_task = 77;
    pp_fake_fork_context = 9191;
    pomp_tpd = 0;
    POMP2_Parallel_fork(&h, 1, 4, &old, ctc);
    ck_assert_int_eq(old, 77);
    ck_assert_int_eq(pomp_tpd, 9191); /* copied into the team by copyin(pomp_tpd) */
    POMP2_Parallel_begin(&h);
    POMP2_Task_handle bold = 0;
    pp_fake_current_task = 55;
    POMP2_Implicit_barrier_enter(&h, &bold);
    ck_assert_int_eq(bold, 55);
    POMP2_Implicit_barrier_exit(&h, bold);
    POMP2_Parallel_end(&h);
    POMP2_Parallel_join(&h, old);

    pp_region_id par = pp_test_expect_region("!$omp parallel @tasks.c:20", "parallel",
                                             "/tmp/x/tasks.c", 20, 33);
    pp_region_id ib = pp_test_expect_region("!$omp implicit barrier @tasks.c:33",
                                            "implicit barrier", "/tmp/x/tasks.c", 33, 33);
    ck_assert_str_eq(pp_test_region(par)->paradigm, "openmp");
    ck_assert_int_eq(pp_fake_n_events, 7);
    pp_test_expect_event(0, PP_FAKE_FORK, par);
    ck_assert_int_eq(pp_fake_events[0].value, 4);
    pp_test_expect_event(1, PP_FAKE_PARALLEL_BEGIN, par);
    ck_assert_int_eq(pp_fake_events[1].value, 9191);
    pp_test_expect_event(2, PP_FAKE_ENTER, ib);
    pp_test_expect_event(3, PP_FAKE_SWITCH, PP_REGION_INVALID);
    ck_assert_int_eq(pp_fake_events[3].value, 55);
    pp_test_expect_event(4, PP_FAKE_EXIT, ib);
    pp_test_expect_event(5, PP_FAKE_PARALLEL_END, par);
    pp_test_expect_event(6, PP_FAKE_JOIN, par);
    ck_assert_int_eq(pp_fake_events[6].value, 77);

    /* if(0): a team of one */
    pp_fake_reset_events();
    POMP2_Parallel_fork(&h, 0, 4, &old, ctc);
    ck_assert_int_eq(pp_fake_events[0].value, 1);
}
END_TEST

START_TEST(worksharing_regions)
{
    pp_test_setup();
    static POMP2_Region_handle hfor, hsec, hsingle, hcopy, hmaster, hcrit, hnamed, hord, hatomic,
        hflush, hbar;
    POMP2_Task_handle old;
    POMP2_For_enter(&hfor, "65*regionType=for*sscl=/tmp/x/ws.c:13:13*escl=/tmp/x/ws.c:14:14**");
    POMP2_Implicit_barrier_enter(&hfor, &old);
    POMP2_Implicit_barrier_exit(&hfor, old);
    POMP2_For_exit(&hfor);
    pp_region_id f = pp_test_expect_region("!$omp for @ws.c:13", "loop", "/tmp/x/ws.c", 13, 14);
    pp_region_id fb = pp_test_expect_region("!$omp implicit barrier @ws.c:14", "implicit barrier",
                                            "/tmp/x/ws.c", 14, 14);
    pp_test_expect_event(0, PP_FAKE_ENTER, f);
    pp_test_expect_event(1, PP_FAKE_ENTER, fb);
    pp_test_expect_event(2, PP_FAKE_SWITCH, PP_REGION_INVALID);
    pp_test_expect_event(3, PP_FAKE_EXIT, fb);
    pp_test_expect_event(4, PP_FAKE_EXIT, f);

    pp_fake_reset_events();
    const char *sec = "84*regionType=sections*sscl=/tmp/x/ws.c:21:21*escl=/tmp/x/ws.c:27:27*numSections=2**";
    POMP2_Sections_enter(&hsec, sec);
    POMP2_Section_begin(&hsec, sec);
    POMP2_Section_end(&hsec);
    POMP2_Sections_exit(&hsec);
    pp_region_id s = pp_test_expect_region("!$omp sections @ws.c:21", "sections", NULL, 21, 27);
    pp_region_id s1 = pp_test_expect_region("!$omp section @ws.c:21", "section", NULL, 21, 27);
    pp_test_expect_region("!$omp implicit barrier @ws.c:27", "implicit barrier", NULL, 27, 27);
    pp_test_expect_event(0, PP_FAKE_ENTER, s);
    pp_test_expect_event(1, PP_FAKE_ENTER, s1);
    pp_test_expect_event(2, PP_FAKE_EXIT, s1);
    pp_test_expect_event(3, PP_FAKE_EXIT, s);

    pp_fake_reset_events();
    POMP2_Single_enter(&hsingle, "68*regionType=single*sscl=/tmp/x/ws.c:17:17*escl=/tmp/x/ws.c:18:18**");
    POMP2_Single_begin(&hsingle);
    POMP2_Single_end(&hsingle);
    POMP2_Single_exit(&hsingle);
    pp_region_id sg = pp_test_expect_region("!$omp single @ws.c:17", "single", NULL, 17, 18);
    pp_region_id sb = pp_test_expect_region("!$omp single sblock @ws.c:17", "single sblock", NULL, 17, 18);
    pp_test_expect_region("!$omp implicit barrier @ws.c:18", "implicit barrier", NULL, 18, 18);
    pp_test_expect_event(0, PP_FAKE_ENTER, sg);
    pp_test_expect_event(1, PP_FAKE_ENTER, sb);
    pp_test_expect_event(2, PP_FAKE_EXIT, sb);
    pp_test_expect_event(3, PP_FAKE_EXIT, sg);

    /* copyprivate: OPARI2 emits no implicit barrier, so none is defined */
    POMP2_Single_enter(&hcopy, "81*regionType=single*sscl=/tmp/x/cp.c:5:5*escl=/tmp/x/cp.c:6:6*hasCopyprivate=1**");
    pp_test_expect_region("!$omp single @cp.c:5", "single", NULL, 5, 6);
    ck_assert_uint_eq(pp_fake_region_by_name("!$omp implicit barrier @cp.c:6"), PP_REGION_INVALID);

    POMP2_Master_begin(&hmaster, "68*regionType=master*sscl=/tmp/x/ws.c:19:19*escl=/tmp/x/ws.c:20:20**");
    POMP2_Master_end(&hmaster);
    pp_test_expect_region("!$omp master @ws.c:19", "master", NULL, 19, 20);

    POMP2_Critical_enter(&hcrit, "70*regionType=critical*sscl=/tmp/x/ws.c:15:15*escl=/tmp/x/ws.c:16:16**");
    POMP2_Critical_begin(&hcrit);
    POMP2_Critical_end(&hcrit);
    POMP2_Critical_exit(&hcrit);
    pp_test_expect_region("!$omp critical @ws.c:15", "critical", NULL, 15, 16);
    pp_test_expect_region("!$omp critical sblock @ws.c:15", "critical sblock", NULL, 15, 16);

    POMP2_Critical_enter(&hnamed, "87*regionType=critical*sscl=/tmp/x/ws.c:32:32*escl=/tmp/x/ws.c:33:33*criticalName=foo**");
    pp_test_expect_region("!$omp critical (foo) @ws.c:32", "critical", NULL, 32, 33);
    pp_test_expect_region("!$omp critical sblock (foo) @ws.c:32", "critical sblock", NULL, 32, 33);

    POMP2_Ordered_enter(&hord, "69*regionType=ordered*sscl=/tmp/x/ws.c:16:16*escl=/tmp/x/ws.c:17:17**");
    POMP2_Ordered_begin(&hord);
    POMP2_Ordered_end(&hord);
    POMP2_Ordered_exit(&hord);
    pp_test_expect_region("!$omp ordered @ws.c:16", "ordered", NULL, 16, 17);
    pp_test_expect_region("!$omp ordered sblock @ws.c:16", "ordered sblock", NULL, 16, 17);

    POMP2_Atomic_enter(&hatomic, "68*regionType=atomic*sscl=/tmp/x/ws.c:29:29*escl=/tmp/x/ws.c:30:30**");
    POMP2_Atomic_exit(&hatomic);
    pp_test_expect_region("!$omp atomic @ws.c:29", "atomic", NULL, 29, 30);
    POMP2_Flush_enter(&hflush, "67*regionType=flush*sscl=/tmp/x/ws.c:38:38*escl=/tmp/x/ws.c:38:38**");
    POMP2_Flush_exit(&hflush);
    pp_test_expect_region("!$omp flush @ws.c:38", "flush", NULL, 38, 38);
    pp_fake_current_task = 31;
    POMP2_Barrier_enter(&hbar, &old, "69*regionType=barrier*sscl=/tmp/x/ws.c:39:39*escl=/tmp/x/ws.c:39:39**");
    ck_assert_int_eq(old, 31);
    POMP2_Barrier_exit(&hbar, old);
    pp_test_expect_region("!$omp barrier @ws.c:39", "barrier", NULL, 39, 39);
}
END_TEST

START_TEST(combined_parallel_constructs)
{
    pp_test_setup();
    static POMP2_Region_handle pf, ps;
    POMP2_Task_handle old, bold;
    const char *ctc = "83*regionType=parallelfor*sscl=/tmp/x/all/all.c:50:50*escl=/tmp/x/all/all.c:51:51**";
    POMP2_Parallel_fork(&pf, 1, 2, &old, ctc);
    POMP2_Parallel_begin(&pf);
    POMP2_For_enter(&pf, ctc);
    POMP2_Implicit_barrier_enter(&pf, &bold);
    POMP2_Implicit_barrier_exit(&pf, bold);
    POMP2_For_exit(&pf);
    POMP2_Parallel_end(&pf);
    POMP2_Parallel_join(&pf, old);
    pp_region_id par = pp_test_expect_region("!$omp parallel @all.c:50", "parallel", NULL, 50, 51);
    pp_region_id loop = pp_test_expect_region("!$omp for @all.c:50", "loop", NULL, 50, 51);
    pp_region_id ib = pp_test_expect_region("!$omp implicit barrier @all.c:51", "implicit barrier",
                                            NULL, 51, 51);
    pp_test_expect_event(0, PP_FAKE_FORK, par);
    pp_test_expect_event(1, PP_FAKE_PARALLEL_BEGIN, par);
    pp_test_expect_event(2, PP_FAKE_ENTER, loop);
    pp_test_expect_event(3, PP_FAKE_ENTER, ib);
    pp_test_expect_event(5, PP_FAKE_EXIT, ib);
    pp_test_expect_event(6, PP_FAKE_EXIT, loop);
    pp_test_expect_event(7, PP_FAKE_PARALLEL_END, par);

    pp_fake_reset_events();
    const char *sctc = "88*regionType=parallelsections*sscl=/tmp/x/all/all.c:52:52*escl=/tmp/x/all/all.c:56:56**";
    POMP2_Parallel_fork(&ps, 1, 2, &old, sctc);
    POMP2_Parallel_begin(&ps);
    POMP2_Sections_enter(&ps, sctc);
    POMP2_Section_begin(&ps, sctc);
    POMP2_Section_end(&ps);
    POMP2_Sections_exit(&ps);
    par = pp_test_expect_region("!$omp parallel @all.c:52", "parallel", NULL, 52, 56);
    pp_region_id secs = pp_test_expect_region("!$omp sections @all.c:52", "sections", NULL, 52, 56);
    pp_region_id sec = pp_test_expect_region("!$omp section @all.c:52", "section", NULL, 52, 56);
    pp_test_expect_event(2, PP_FAKE_ENTER, secs);
    pp_test_expect_event(3, PP_FAKE_ENTER, sec);
    pp_test_expect_event(4, PP_FAKE_EXIT, sec);
    pp_test_expect_event(5, PP_FAKE_EXIT, secs);
}
END_TEST

START_TEST(task_events)
{
    pp_test_setup();
    static POMP2_Region_handle t, u, w;
    POMP2_Task_handle old = 0, nt = 0;
    pp_fake_current_task = 12;
    const char *ctc = "72*regionType=task*sscl=/tmp/x/tasks.c:10:10*escl=/tmp/x/tasks.c:11:11**";
    POMP2_Task_create_begin(&t, &nt, &old, 1, ctc);
    ck_assert_int_eq(old, 12);
    ck_assert_int_ne(nt, 0);
    POMP2_Task_begin(&t, nt);
    POMP2_Task_end(&t);
    POMP2_Task_create_end(&t, old);
    pp_region_id task = pp_test_expect_region("!$omp task @tasks.c:10", "task", "/tmp/x/tasks.c", 10, 11);
    pp_region_id create = pp_test_expect_region("!$omp create task @tasks.c:10", "task create",
                                                "/tmp/x/tasks.c", 10, 11);
    pp_test_expect_event(0, PP_FAKE_NEW_HANDLE, PP_REGION_INVALID);
    ck_assert_int_eq(pp_fake_events[0].value, nt);
    pp_test_expect_event(1, PP_FAKE_ENTER, create);
    pp_test_expect_event(2, PP_FAKE_TASK_CREATE, create); /* the trace learns the new task */
    ck_assert_int_eq(pp_fake_events[2].value, nt);
    pp_test_expect_event(3, PP_FAKE_TASK_BEGIN, task);
    ck_assert_int_eq(pp_fake_events[3].value, nt);
    ck_assert_int_eq(pp_fake_events[3].untied, 0);
    pp_test_expect_event(4, PP_FAKE_TASK_END, task);
    pp_test_expect_event(5, PP_FAKE_SWITCH, PP_REGION_INVALID);
    ck_assert_int_eq(pp_fake_events[5].value, 12);
    pp_test_expect_event(6, PP_FAKE_EXIT, create);

    pp_fake_reset_events();
    const char *uctc = "72*regionType=task*sscl=/tmp/x/u.c:6:6*escl=/tmp/x/u.c:7:7*hasUntied=1**";
    POMP2_Task_handle nt2 = 0;
    POMP2_Untied_task_create_begin(&u, &nt2, &old, 1, uctc);
    ck_assert_int_ne(nt2, nt);
    POMP2_Untied_task_begin(&u, nt2);
    POMP2_Untied_task_end(&u);
    POMP2_Untied_task_create_end(&u, old);
    pp_region_id ut = pp_test_expect_region("!$omp untied task @u.c:6", "untied task", NULL, 6, 7);
    pp_region_id uc = pp_test_expect_region("!$omp create untied task @u.c:6", "task create", NULL, 6, 7);
    pp_test_expect_event(1, PP_FAKE_ENTER, uc);
    pp_test_expect_event(2, PP_FAKE_TASK_CREATE, uc);
    ck_assert_int_eq(pp_fake_events[2].value, nt2);
    pp_test_expect_event(3, PP_FAKE_TASK_BEGIN, ut);
    ck_assert_int_eq(pp_fake_events[3].untied, 1);
    pp_test_expect_event(6, PP_FAKE_EXIT, uc);

    pp_fake_reset_events();
    pp_fake_current_task = 99;
    POMP2_Taskwait_begin(&w, &old, "76*regionType=taskwait*sscl=/tmp/x/tasks.c:14:14*escl=/tmp/x/tasks.c:14:14**");
    ck_assert_int_eq(old, 99);
    pp_fake_current_task = 5; /* another task ran meanwhile */
    POMP2_Taskwait_end(&w, old);
    pp_region_id tw = pp_test_expect_region("!$omp taskwait @tasks.c:14", "taskwait", NULL, 14, 14);
    pp_test_expect_event(0, PP_FAKE_ENTER, tw);
    pp_test_expect_event(1, PP_FAKE_SWITCH, PP_REGION_INVALID);
    ck_assert_int_eq(pp_fake_events[1].value, 99);
    pp_test_expect_event(2, PP_FAKE_EXIT, tw);

    ck_assert_int_ne(POMP2_Get_new_task_handle(), POMP2_Get_new_task_handle());
}
END_TEST

/* The wrapper's calls: the _wrapped forms and the merged calls of adjacent
 * events record what the POMP2 calls they stand for record, also while the
 * handles are not assigned yet (their first calls assign them). */
void POMP2_Task_create_begin_wrapped(POMP2_Region_handle *, POMP2_Task_handle *,
                                     POMP2_Task_handle *, int, const char[]);
void POMP2_Task_create_end_wrapped(POMP2_Region_handle *, POMP2_Task_handle);
void POMP2_Task_begin_wrapped(POMP2_Region_handle *, POMP2_Task_handle);
void POMP2_Task_end_wrapped(POMP2_Region_handle *);
void POMP2_Taskwait_begin_wrapped(POMP2_Region_handle *, POMP2_Task_handle *, const char[]);
void POMP2_Taskwait_end_wrapped(POMP2_Region_handle *, POMP2_Task_handle);
void POMP2_Task_create_next(POMP2_Region_handle *, POMP2_Task_handle, POMP2_Region_handle *,
                            POMP2_Task_handle *, const char[]);
void POMP2_Task_create_end_wait(POMP2_Region_handle *, POMP2_Task_handle, POMP2_Region_handle *,
                                const char[]);

#define PP_TEST_CTC_A "70*regionType=task*sscl=/tmp/x/wrap.c:10:10*escl=/tmp/x/wrap.c:11:11**"
#define PP_TEST_CTC_B "70*regionType=task*sscl=/tmp/x/wrap.c:12:12*escl=/tmp/x/wrap.c:13:13**"
#define PP_TEST_CTC_W "74*regionType=taskwait*sscl=/tmp/x/wrap.c:14:14*escl=/tmp/x/wrap.c:14:14**"

/* fib's creation sequence, through the POMP2 calls (wrapper 0) or the
 * wrapper's (1), with its own handles; the events it records */
static int pp_test_wrapper_sequence(int wrapper, POMP2_Region_handle *a, POMP2_Region_handle *b,
                                    POMP2_Region_handle *w, pp_fake_event *out)
{
    pp_fake_reset_events();
    pp_fake_current_task = 7;
    POMP2_Task_handle old = 0, na = 0, nb = 0;
    if (wrapper) {
        POMP2_Task_create_begin_wrapped(a, &na, &old, 1, PP_TEST_CTC_A);
        POMP2_Task_begin_wrapped(a, na);
        POMP2_Task_end_wrapped(a);
        pp_fake_current_task = 3; /* the task ran at once: the creator resumes */
        POMP2_Task_create_next(a, old, b, &nb, PP_TEST_CTC_B);
        POMP2_Task_create_end_wait(b, old, w, PP_TEST_CTC_W);
        POMP2_Taskwait_end_wrapped(w, old);
        POMP2_Taskwait_begin_wrapped(w, &old, PP_TEST_CTC_W);
        POMP2_Taskwait_end_wrapped(w, old);
        POMP2_Task_create_begin_wrapped(b, &nb, &old, 1, PP_TEST_CTC_B);
        POMP2_Task_create_end_wrapped(b, old);
    } else {
        POMP2_Task_create_begin(a, &na, &old, 1, PP_TEST_CTC_A);
        POMP2_Task_begin(a, na);
        POMP2_Task_end(a);
        pp_fake_current_task = 3;
        POMP2_Task_create_end(a, old);
        POMP2_Task_create_begin(b, &nb, &old, 1, PP_TEST_CTC_B);
        POMP2_Task_create_end(b, old);
        POMP2_Taskwait_begin(w, &old, PP_TEST_CTC_W);
        POMP2_Taskwait_end(w, old);
        POMP2_Taskwait_begin(w, &old, PP_TEST_CTC_W);
        POMP2_Taskwait_end(w, old);
        POMP2_Task_create_begin(b, &nb, &old, 1, PP_TEST_CTC_B);
        POMP2_Task_create_end(b, old);
    }
    ck_assert_int_eq(old, 7);
    int n = pp_fake_n_events;
    memcpy(out, pp_fake_events, (size_t)n * sizeof *out);
    return n;
}

START_TEST(wrapper_calls_as_pomp2_calls)
{
    pp_test_setup();
    static POMP2_Region_handle a1, b1, w1, a2, b2, w2;
    static pp_fake_event plain[64], wrapped[64];
    for (int assigned = 0; assigned < 2; assigned++) {
        int n = pp_test_wrapper_sequence(0, &a1, &b1, &w1, plain);
        int m = pp_test_wrapper_sequence(1, &a2, &b2, &w2, wrapped);
        ck_assert_int_eq(m, n);
        ck_assert_int_ge(n, 16);
        for (int i = 0; i < n; i++) {
            ck_assert_int_eq(wrapped[i].kind, plain[i].kind);
            ck_assert_uint_eq(wrapped[i].region, plain[i].region);
            if (wrapped[i].kind != PP_FAKE_NEW_HANDLE && wrapped[i].kind != PP_FAKE_TASK_CREATE &&
                wrapped[i].kind != PP_FAKE_TASK_BEGIN)
                ck_assert_int_eq(wrapped[i].value, plain[i].value);
        }
        /* the handles the calls assigned: the same regions either way */
        ck_assert_ptr_eq(a2, a1);
        ck_assert_ptr_eq(b2, b1);
        ck_assert_ptr_eq(w2, w1);
    }
}
END_TEST

/* ---- lazy assignment racing from 8 threads ----------------------------------- */

static POMP2_Region_handle pp_test_race_slot;
static pthread_barrier_t pp_test_race_barrier;
static void *pp_test_race_seen[8];
#define PP_TEST_RACE_CTC "77*regionType=for*sscl=/tmp/x/race.c:3:3*escl=/tmp/x/race.c:4:4*hasNowait=1**"

static void *pp_test_racer(void *arg)
{
    int i = (int)(intptr_t)arg;
    pthread_barrier_wait(&pp_test_race_barrier);
    POMP2_For_enter(&pp_test_race_slot, PP_TEST_RACE_CTC);
    pp_test_race_seen[i] = __atomic_load_n(&pp_test_race_slot, __ATOMIC_ACQUIRE);
    POMP2_For_exit(&pp_test_race_slot);
    return NULL;
}

START_TEST(lazy_assignment_race)
{
    pp_test_setup();
    int defined_before = pp_fake_n_regions;
    pthread_t th[8];
    pthread_barrier_init(&pp_test_race_barrier, NULL, 8);
    for (int i = 0; i < 8; i++)
        pthread_create(&th[i], NULL, pp_test_racer, (void *)(intptr_t)i);
    for (int i = 0; i < 8; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&pp_test_race_barrier);
    ck_assert_ptr_nonnull(pp_test_race_seen[0]);
    for (int i = 1; i < 8; i++)
        ck_assert_ptr_eq(pp_test_race_seen[i], pp_test_race_seen[0]);
    /* one entry: exactly one region defined (nowait: no barrier) */
    ck_assert_int_eq(pp_fake_n_regions, defined_before + 1);
    pp_region_id f = pp_test_expect_region("!$omp for @race.c:3", "loop", NULL, 3, 4);
    ck_assert_int_eq(pp_fake_n_events, 16);
    for (int i = 0; i < pp_fake_n_events; i++)
        ck_assert_uint_eq(pp_fake_events[i].region, f);

    /* another slot with the same string shares the entry */
    static POMP2_Region_handle other;
    POMP2_Assign_handle(&other, PP_TEST_RACE_CTC);
    ck_assert_ptr_eq(other, pp_test_race_seen[0]);
}
END_TEST

/* ---- malformed strings and unassigned handles ------------------------------- */

START_TEST(malformed_string_warns_once_and_measures_unknown)
{
    pp_test_setup();
    static const char *bad[] = {
        "garbage",
        "99*regionType=task*sscl=/a.c:1:1*escl=/a.c:2:2**",
        "32*sscl=/a.c:1:1*escl=/a.c:2:2**",
        "49*regionType=teams*sscl=/a.c:1:1*escl=/a.c:2:2**",
    };
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        POMP2_Region_handle h1 = NULL, h2 = NULL;
        pp_fake_reset_events();
        pp_test_capture_begin();
        POMP2_Critical_enter(&h1, bad[b]);
        POMP2_Critical_begin(&h1);
        POMP2_Critical_end(&h1);
        POMP2_Critical_exit(&h1);
        POMP2_Assign_handle(&h2, bad[b]); /* same string again: no second warning */
        const char *err = pp_test_capture_end();
        ck_assert_msg(pp_test_count_lines(err) == 1, "for %s got: %s", bad[b], err);
        ck_assert(strncmp(err, "pompprof: ", 10) == 0);
        ck_assert_ptr_nonnull(strstr(err, bad[b]));
        ck_assert_ptr_eq(h1, h2);
        pp_region_id u = pp_fake_region_by_name("!$omp unknown region");
        ck_assert_uint_ne(u, PP_REGION_INVALID);
        ck_assert_int_eq(pp_fake_n_events, 4);
        for (int i = 0; i < 4; i++)
            ck_assert_uint_eq(pp_fake_events[i].region, u);
    }
    /* NULL string: one warning, usable */
    POMP2_Region_handle h = NULL;
    pp_test_capture_begin();
    POMP2_Assign_handle(&h, NULL);
    POMP2_Assign_handle(&h, NULL);
    const char *err = pp_test_capture_end();
    ck_assert_int_eq(pp_test_count_lines(err), 1);
    ck_assert_ptr_nonnull(h);
}
END_TEST

START_TEST(unassigned_handle_without_string)
{
    pp_test_setup();
    POMP2_Region_handle h = NULL;
    POMP2_Task_handle old;
    pp_test_capture_begin();
    POMP2_Single_begin(&h);
    POMP2_Single_end(&h);
    POMP2_Task_begin(&h, 7);
    POMP2_Task_end(&h);
    POMP2_Implicit_barrier_enter(&h, &old);
    POMP2_Implicit_barrier_exit(&h, old);
    POMP2_Parallel_begin(&h);
    POMP2_Parallel_end(&h);
    const char *err = pp_test_capture_end();
    ck_assert_msg(pp_test_count_lines(err) == 1, "got: %s", err);
    pp_region_id u = pp_fake_region_by_name("!$omp unknown region");
    ck_assert_uint_ne(u, PP_REGION_INVALID);
    ck_assert_int_eq(pp_fake_n_events, 9); /* 8 calls, barrier exit adds a switch */
    pp_test_expect_event(0, PP_FAKE_ENTER, u);
    pp_test_expect_event(2, PP_FAKE_TASK_BEGIN, u);
    /* the slot stays free for a later call that brings the string */
    ck_assert_ptr_null(h);
    POMP2_Single_enter(&h, "68*regionType=single*sscl=/tmp/x/zz.c:17:17*escl=/tmp/x/zz.c:18:18**");
    ck_assert_ptr_nonnull(h);
    pp_test_expect_region("!$omp single @zz.c:17", "single", NULL, 17, 18);
}
END_TEST

/* ---- locks, user regions, lifecycle ----------------------------------------- */

START_TEST(lock_wrappers_call_the_real_functions)
{
    pp_test_setup();
    omp_lock_t l;
    omp_nest_lock_t nl;
    POMP2_Init_lock(&l);
    POMP2_Set_lock(&l);
    ck_assert_int_eq(omp_test_lock(&l), 0); /* really held */
    POMP2_Unset_lock(&l);
    ck_assert_int_eq(POMP2_Test_lock(&l), 1);
    POMP2_Unset_lock(&l);
    POMP2_Destroy_lock(&l);
    POMP2_Init_nest_lock(&nl);
    POMP2_Set_nest_lock(&nl);
    ck_assert_int_eq(POMP2_Test_nest_lock(&nl), 2); /* nesting depth */
    POMP2_Unset_nest_lock(&nl);
    POMP2_Unset_nest_lock(&nl);
    POMP2_Destroy_nest_lock(&nl);
    ck_assert_int_eq(POMP2_Lib_get_max_threads(), omp_get_max_threads());

    static const char *names[] = {"omp_init_lock", "omp_set_lock", "omp_unset_lock",
                                  "omp_test_lock", "omp_unset_lock", "omp_destroy_lock",
                                  "omp_init_nest_lock", "omp_set_nest_lock",
                                  "omp_test_nest_lock", "omp_unset_nest_lock",
                                  "omp_unset_nest_lock", "omp_destroy_nest_lock"};
    /* for the trace: the lock (by address) is acquired when set and a
     * successful test return, released when unset is called */
    static const int acquires[] = {0, 1, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0};
    static const int releases[] = {0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 1, 0};
    int e = 0;
    for (int i = 0; i < 12; i++) {
        pp_region_id id = pp_test_expect_region(names[i], "wrapper", "OMP", -1, -1);
        ck_assert_str_eq(pp_test_region(id)->paradigm, "openmp");
        const void *lock = i < 6 ? (const void *)&l : (const void *)&nl;
        if (releases[i]) {
            pp_test_expect_event(e, PP_FAKE_LOCK_RELEASE, id);
            ck_assert_ptr_eq((const void *)(intptr_t)pp_fake_events[e++].value, lock);
        }
        pp_test_expect_event(e++, PP_FAKE_ENTER, id);
        pp_test_expect_event(e++, PP_FAKE_EXIT, id);
        if (acquires[i]) {
            pp_test_expect_event(e, PP_FAKE_LOCK_ACQUIRE, id);
            ck_assert_ptr_eq((const void *)(intptr_t)pp_fake_events[e++].value, lock);
        }
    }
    ck_assert_int_eq(pp_fake_n_events, e);
    ck_assert_int_eq(e, 32);
}
END_TEST

START_TEST(user_regions)
{
    pp_test_setup();
    static POMP2_USER_Region_handle h;
    POMP2_Begin(&h, "106*regionType=userRegion*sscl=/tmp/x/all/all.c:11:11*escl=/tmp/x/all/all.c:57:57*userRegionName=myregion**");
    POMP2_End(&h);
    pp_region_id r = pp_test_expect_region("myregion", "user", "/tmp/x/all/all.c", 11, 57);
    ck_assert_str_eq(pp_test_region(r)->paradigm, "user");
    pp_test_expect_event(0, PP_FAKE_ENTER, r);
    pp_test_expect_event(1, PP_FAKE_EXIT, r);

    pp_fake_reset_events();
    int before = pp_fake_n_regions;
    char buf[16];
    strcpy(buf, "solve");
    pompprof_region_begin("solve");
    pompprof_region_begin("inner");
    pompprof_region_end("inner");
    pompprof_region_end(buf); /* another pointer, same name: same region */
    strcpy(buf, "other");     /* same pointer, new name: a new region */
    pompprof_region_begin(buf);
    pompprof_region_end(buf);
    ck_assert_int_eq(pp_fake_n_regions, before + 3);
    pp_region_id solve = pp_test_expect_region("solve", "user", NULL, -1, -1);
    pp_region_id inner = pp_test_expect_region("inner", "user", NULL, -1, -1);
    pp_region_id other = pp_test_expect_region("other", "user", NULL, -1, -1);
    pp_test_expect_event(0, PP_FAKE_ENTER, solve);
    pp_test_expect_event(1, PP_FAKE_ENTER, inner);
    pp_test_expect_event(2, PP_FAKE_EXIT, inner);
    pp_test_expect_event(3, PP_FAKE_EXIT, solve);
    pp_test_expect_event(4, PP_FAKE_ENTER, other);
    pp_test_expect_event(5, PP_FAKE_EXIT, other);
}
END_TEST

/* pompprof_parameter_*: one engine key per name (the first call defines
 * it), whatever pointer carries the name; values as given. */
START_TEST(parameters)
{
    pp_test_setup();
    int before = pp_fake_n_params;
    char buf[16];
    strcpy(buf, "depth");
    pompprof_parameter_int64("depth", 3);
    pompprof_parameter_int64(buf, -4);   /* another pointer, same name */
    strcpy(buf, "mode");                 /* same pointer, another name */
    pompprof_parameter_string(buf, "fast");
    pompprof_parameter_string("mode", NULL);
    ck_assert_int_eq(pp_fake_n_params, before + 2);
    ck_assert_str_eq(pp_fake_params[before], "depth");
    ck_assert_str_eq(pp_fake_params[before + 1], "mode");
    ck_assert_int_eq(pp_fake_n_events, 4);
    pp_test_expect_event(0, PP_FAKE_PARAM_INT64, (pp_region_id)before);
    ck_assert_int_eq(pp_fake_events[0].value, 3);
    pp_test_expect_event(1, PP_FAKE_PARAM_INT64, (pp_region_id)before);
    ck_assert_int_eq(pp_fake_events[1].value, -4);
    pp_test_expect_event(2, PP_FAKE_PARAM_STRING, (pp_region_id)before + 1);
    ck_assert_str_eq(pp_fake_events[2].text, "fast");
    pp_test_expect_event(3, PP_FAKE_PARAM_STRING, (pp_region_id)before + 1);
    ck_assert_str_eq(pp_fake_events[3].text, "");
}
END_TEST

START_TEST(lifecycle_and_version)
{
    pp_test_setup();
    POMP2_Off();
    POMP2_On();
    pompprof_off();
    pompprof_on();
    POMP2_Finalize();
    pompprof_write_profile();
    static const pp_fake_kind want[] = {PP_FAKE_DISABLE, PP_FAKE_ENABLE, PP_FAKE_DISABLE,
                                        PP_FAKE_ENABLE,  PP_FAKE_FINALIZE, PP_FAKE_FINALIZE};
    ck_assert_int_eq(pp_fake_n_events, 6);
    for (int i = 0; i < 6; i++)
        pp_test_expect_event(i, want[i], PP_REGION_INVALID);
    ck_assert_str_eq(POMP2_Get_opari2_version(), PP_TEST_OPARI2_VERSION);
}
END_TEST

Suite *pp_check_suite(void)
{
    Suite *s = suite_create("pomp2_adapter");
    TCase *tc = tcase_create("adapter");
    tcase_add_test(tc, init_calls_generated_init_regions);
    tcase_add_test(tc, parallel_region_events);
    tcase_add_test(tc, worksharing_regions);
    tcase_add_test(tc, combined_parallel_constructs);
    tcase_add_test(tc, task_events);
    tcase_add_test(tc, wrapper_calls_as_pomp2_calls);
    tcase_add_test(tc, lazy_assignment_race);
    tcase_add_test(tc, malformed_string_warns_once_and_measures_unknown);
    tcase_add_test(tc, parameters);
    tcase_add_test(tc, unassigned_handle_without_string);
    tcase_add_test(tc, lock_wrappers_call_the_real_functions);
    tcase_add_test(tc, user_regions);
    tcase_add_test(tc, lifecycle_and_version);
    suite_add_tcase(s, tc);
    return s;
}
