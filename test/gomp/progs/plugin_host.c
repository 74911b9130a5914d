/* A program without OpenMP whose OpenMP code is in a plugin (plugin.c):
 * opened with dlopen (RTLD_LOCAL: libgomp comes with it, local to it), or,
 * built with -DLINKED, linked (libgomp loaded at start).  Without a plugin
 * argument it opens nothing. */
#include <stdio.h>
#include <stdlib.h>
#ifndef LINKED
#include <dlfcn.h>
#endif

long plugin_run(int n);

int main(int argc, char **argv)
{
    int n = argc > 2 ? atoi(argv[2]) : 10;
#ifdef LINKED
    (void)argc;
    printf("fib(%d) = %ld\n", n, plugin_run(n) / 1000);
#else
    if (argc < 2) {
        printf("no plugin\n");
        return 0;
    }
    void *plugin = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!plugin) {
        printf("dlopen: %s\n", dlerror());
        return 1;
    }
    long (*run)(int) = (long (*)(int))dlsym(plugin, "plugin_run");
    printf("fib(%d) = %ld\n", n, run(n) / 1000);
#endif
    return 0;
}
