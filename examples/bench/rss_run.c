/* rss_run: run a program and write its peak resident set size (KiB) and
 * its CPU time (user + system, seconds) to a file -- the measuring half of
 * 'make bench'.
 *
 * Why not os.wait4 in Python: Linux carries the high-water mark of the
 * forking process over an exec, so a program started straight from Python
 * reports at least the interpreter's ~15 MB.  A small process in between
 * that forks (like /usr/bin/time) gives the program's own peak.
 *
 * usage: rss_run OUTFILE PROGRAM [ARGS...]
 * Exit status: the program's, or 128 + signal number; 127 if it cannot
 * start. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: rss_run OUTFILE PROGRAM [ARGS...]\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("rss_run: fork");
        return 127;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror("rss_run: cannot run the program");
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) {
        perror("rss_run: wait4");
        return 127;
    }
    FILE *out = fopen(argv[1], "w");
    if (!out) {
        perror("rss_run: cannot write the result file");
        return 127;
    }
    double cpu = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec * 1e-6 +
                 (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec * 1e-6;
    fprintf(out, "%ld %.6f\n", usage.ru_maxrss, cpu);
    fclose(out);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
