/* No OpenMP at all. */
#include <stdio.h>

int main(void)
{
    printf("serial\n");
    return 5;
}
