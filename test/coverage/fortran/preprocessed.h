#define N 50
#define USE_DO 1
