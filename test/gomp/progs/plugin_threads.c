/* Two threads of a program without OpenMP call a plugin's OpenMP code
 * (plugin.c, opened with dlopen) at the same moment, the plugin's first
 * call on both (test_gomp_dlopen.py): the interposer's late start is
 * decided by one of them while the other waits for the decision. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static long (*plugin_run)(int);
static pthread_barrier_t together;
static long result[2];

static void *call(void *arg)
{
    long i = (long)arg;
    pthread_barrier_wait(&together);
    result[i] = plugin_run(9) / 1000;
    return NULL;
}

int main(int argc, char **argv)
{
    void *plugin = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!plugin || !(plugin_run = (long (*)(int))dlsym(plugin, "plugin_run"))) {
        printf("no plugin\n");
        return 1;
    }
    pthread_t threads[2];
    pthread_barrier_init(&together, NULL, 2);
    for (long i = 0; i < 2; i++)
        pthread_create(&threads[i], NULL, call, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(threads[i], NULL);
    printf("%ld %ld\n", result[0], result[1]);
    return 0;
}
