/* fork() and exec() in a profiled program: children that leave through exit()
 * (one forked inside a parallel region), one that dies of SIGTERM, and one that
 * exec()s this program again, which then does OpenMP work of its own. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int child_status(pid_t pid)
{
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "exec") == 0) {
        int n = 0;
#pragma omp parallel reduction(+ : n)
        n += 1;
        printf("exec'd child: %d\n", n > 0);
        return 0;
    }
    int sum = 0;
#pragma omp parallel reduction(+ : sum)
    sum += 1;
    fflush(stdout);
    pid_t a = fork();
    if (a == 0) {
        long s = 0;
        for (long i = 0; i < 1000; i++)
            s += i;
        printf("child 1: %ld\n", s);
        exit(0);
    }
    printf("child 1 status %d\n", child_status(a));
#pragma omp parallel
    {
#pragma omp single
        {
            fflush(stdout);
            pid_t b = fork();
            if (b == 0) {
                printf("child 2\n");
                exit(3);
            }
            printf("child 2 status %d\n", child_status(b));
        }
    }
    fflush(stdout);
    pid_t c = fork();
    if (c == 0) {
        execl(argv[0], argv[0], "exec", (char *)NULL);
        _exit(127);
    }
    printf("child 3 status %d\n", child_status(c));
    pid_t d = fork();
    if (d == 0) {
        raise(SIGTERM);
        _exit(1);
    }
    printf("child 4 status %d\n", child_status(d));
    printf("parent: %d\n", sum > 0);
    return 0;
}
