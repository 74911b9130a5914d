/* e2e: a program without any OpenMP directive. */
#include <stdio.h>

int main(void)
{
    long s = 0;
    for (int i = 0; i < 10; i++)
        s += i * i;
    printf("squares=%ld\n", s);
    return 3; /* a non-zero exit status must pass through too */
}
