/* Replays fuzzer inputs (files named on the command line) through a libFuzzer
 * harness without libFuzzer, so the regression inputs run in every
 * 'make check', also where clang's fuzzer runtime is missing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 1;
        }
        size_t cap = 4096, len = 0;
        uint8_t *buf = malloc(cap);
        size_t n;
        while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
            len += n;
            if (len == cap) {
                uint8_t *bigger = realloc(buf, cap *= 2);
                if (!bigger)
                    free(buf);
                buf = bigger;
            }
        }
        fclose(f);
        if (!buf) {
            fprintf(stderr, "out of memory\n");
            return 1;
        }
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
    }
    printf("replayed %d input(s)\n", argc - 1);
    return 0;
}
