/* Unit tests of lib/pp_signals: each case runs in a forked child, because
 * the subject is how a process dies. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/pp_signals.h"

static char marker[256];

/* The flush stand-in: appends one byte to the marker file per call, using
 * only async-signal-safe calls. */
static void flush_marks(void)
{
    int fd = open(marker, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
        ssize_t w = write(fd, "F", 1);
        (void)w;
        close(fd);
    }
}

static long marker_count(void)
{
    struct stat st;
    if (stat(marker, &st) != 0)
        return 0;
    return (long)st.st_size;
}

static void marker_text(char *buf, size_t cap)
{
    buf[0] = '\0';
    int fd = open(marker, O_RDONLY);
    if (fd < 0)
        return;
    ssize_t n = read(fd, buf, cap - 1);
    buf[n > 0 ? n : 0] = '\0';
    close(fd);
}

static void setup(void)
{
    snprintf(marker, sizeof marker, "/tmp/pp_signals_test_%ld_%d", (long)getpid(), rand());
    unlink(marker);
}

static void teardown(void) { unlink(marker); }

/* A fresh program's view of the two signals: Check's runner installs its own
 * SIGINT/SIGTERM handlers, which forked children inherit. */
static void reset_dispositions(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Run child() in a forked process and return its wait status. */
static int run_child(void (*child)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        reset_dispositions();
        alarm(20); /* a hang in the handler must fail, not block the suite */
        child();
        _exit(0);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return status;
}

static void child_raise_term(void)
{
    ck_assert_int_eq(pp_signals_install(flush_marks, NULL), 2);
    raise(SIGTERM);
    _exit(3); /* reached only if the signal did not kill us */
}

START_TEST(test_sigterm_flushes_once_and_dies_of_sigterm)
{
    int st = run_child(child_raise_term);
    ck_assert_msg(WIFSIGNALED(st), "child was not killed by a signal (status %d)", st);
    ck_assert_int_eq(WTERMSIG(st), SIGTERM);
    ck_assert_int_eq(marker_count(), 1);
}
END_TEST

static void child_raise_int(void)
{
    pp_signals_install(flush_marks, NULL);
    raise(SIGINT);
    _exit(3);
}

START_TEST(test_sigint_flushes_once_and_dies_of_sigint)
{
    int st = run_child(child_raise_int);
    ck_assert(WIFSIGNALED(st));
    ck_assert_int_eq(WTERMSIG(st), SIGINT);
    ck_assert_int_eq(marker_count(), 1);
}
END_TEST

static void exit42(int sig)
{
    (void)sig;
    _exit(42);
}

static void child_own_handler_first(void)
{
    signal(SIGTERM, exit42);
    /* only SIGINT is still SIG_DFL */
    ck_assert_int_eq(pp_signals_install(flush_marks, NULL), 1);
    raise(SIGTERM);
    _exit(3);
}

START_TEST(test_program_handler_installed_before_is_kept)
{
    int st = run_child(child_own_handler_first);
    ck_assert(WIFEXITED(st));
    ck_assert_int_eq(WEXITSTATUS(st), 42);
    ck_assert_int_eq(marker_count(), 0);
}
END_TEST

static void child_own_handler_later(void)
{
    pp_signals_install(flush_marks, NULL);
    signal(SIGTERM, exit42);
    raise(SIGTERM);
    _exit(3);
}

START_TEST(test_program_handler_installed_later_wins)
{
    int st = run_child(child_own_handler_later);
    ck_assert(WIFEXITED(st));
    ck_assert_int_eq(WEXITSTATUS(st), 42);
    ck_assert_int_eq(marker_count(), 0);
}
END_TEST

static void child_ignored(void)
{
    signal(SIGINT, SIG_IGN); /* like a background job started by a shell */
    ck_assert_int_eq(pp_signals_install(flush_marks, NULL), 1);
    raise(SIGINT);
    _exit(7);
}

START_TEST(test_ignored_signal_stays_ignored)
{
    int st = run_child(child_ignored);
    ck_assert(WIFEXITED(st));
    ck_assert_int_eq(WEXITSTATUS(st), 7);
    ck_assert_int_eq(marker_count(), 0);
}
END_TEST

/* A flush that is hit by two more signals while it runs.  raise() queues
 * them on this thread, where the kernel delivers the lowest number first:
 * SIGINT arrives before the re-raised SIGTERM and finds the flush done. */
static void flush_signalled_again(void)
{
    raise(SIGINT);
    kill(getpid(), SIGTERM);
    flush_marks();
}

static void child_second_signal(void)
{
    pp_signals_install(flush_signalled_again, NULL);
    raise(SIGTERM);
    _exit(3);
}

START_TEST(test_second_signal_during_flush_no_second_flush)
{
    int st = run_child(child_second_signal);
    ck_assert(WIFSIGNALED(st));
    ck_assert_int_eq(WTERMSIG(st), SIGTERM);
    ck_assert_int_eq(marker_count(), 1);
}
END_TEST

static void *spin_forever(void *arg)
{
    (void)arg;
    for (;;)
        pause();
    return NULL;
}

static void child_threads_killed_from_outside(void)
{
    pp_signals_install(flush_marks, NULL);
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, spin_forever, NULL);
    /* the parent kills us; the signal may land on any thread */
    kill(getppid(), SIGUSR1);
    for (;;)
        pause();
}

static volatile sig_atomic_t child_ready;
static void on_ready(int sig)
{
    (void)sig;
    child_ready = 1;
}

START_TEST(test_multithreaded_process_signalled_from_outside)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGUSR1);
    signal(SIGUSR1, on_ready);
    sigprocmask(SIG_BLOCK, &block, &old);
    child_ready = 0;
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        reset_dispositions();
        alarm(20);
        child_threads_killed_from_outside();
    }
    while (!child_ready)
        sigsuspend(&old);
    sigprocmask(SIG_SETMASK, &old, NULL);
    /* two signals in a row: one flush, death by the first */
    kill(pid, SIGTERM);
    kill(pid, SIGINT);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    ck_assert(WIFSIGNALED(st));
    ck_assert_msg(WTERMSIG(st) == SIGTERM || WTERMSIG(st) == SIGINT, "died of signal %d",
                  WTERMSIG(st));
    ck_assert_int_eq(marker_count(), 1);
}
END_TEST

static void child_install_twice(void)
{
    ck_assert_int_eq(pp_signals_install(flush_marks, NULL), 2);
    ck_assert_int_eq(pp_signals_install(flush_marks, NULL), 0);
    raise(SIGTERM);
    _exit(3);
}

START_TEST(test_install_is_idempotent)
{
    int st = run_child(child_install_twice);
    ck_assert(WIFSIGNALED(st));
    ck_assert_int_eq(WTERMSIG(st), SIGTERM);
    ck_assert_int_eq(marker_count(), 1);
}
END_TEST

static void child_hold_during_write(void)
{
    pp_signals_install(flush_marks, NULL);
    sigset_t saved;
    pp_signals_hold(&saved);
    raise(SIGTERM); /* arrives "during the write": must wait */
    int fd = open(marker, O_WRONLY | O_CREAT | O_APPEND, 0644);
    ssize_t w = write(fd, "W", 1); /* the write finishes first */
    (void)w;
    close(fd);
    pp_signals_release(&saved);
    _exit(3);
}

START_TEST(test_hold_delays_the_signal_until_release)
{
    int st = run_child(child_hold_during_write);
    ck_assert(WIFSIGNALED(st));
    ck_assert_int_eq(WTERMSIG(st), SIGTERM);
    char text[16];
    marker_text(text, sizeof text);
    ck_assert_str_eq(text, "WF");
}
END_TEST

Suite *pp_check_suite(void)
{
    Suite *s = suite_create("pp_signals");
    TCase *tc = tcase_create("signals");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_sigterm_flushes_once_and_dies_of_sigterm);
    tcase_add_test(tc, test_sigint_flushes_once_and_dies_of_sigint);
    tcase_add_test(tc, test_program_handler_installed_before_is_kept);
    tcase_add_test(tc, test_program_handler_installed_later_wins);
    tcase_add_test(tc, test_ignored_signal_stays_ignored);
    tcase_add_test(tc, test_second_signal_during_flush_no_second_flush);
    tcase_add_test(tc, test_multithreaded_process_signalled_from_outside);
    tcase_add_test(tc, test_install_is_idempotent);
    tcase_add_test(tc, test_hold_delays_the_signal_until_release);
    suite_add_tcase(s, tc);
    return s;
}
