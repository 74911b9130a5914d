/* constructs in an included header.
 * pompprof-coverage: measured=parallel,for */
#include <stdio.h>
#include "header_constructs.h"

int main(void)
{
    printf("%ld\n", header_sum(100));
    return 0;
}
