/* A library loaded with dlopen after the program started (progs/safe.c). */
__attribute__((noinline)) int lib_inner(int x)
{
    return x * 2 + 1;
}

int lib_call(int x)
{
    return lib_inner(x) - x;
}
