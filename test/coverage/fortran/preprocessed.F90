! a file the compiler preprocesses: directives from macros in an #include'd
! file and under #if, __LINE__ and __FILE__ as in a plain build.
! pompprof-coverage: measured=parallel,do,single
#include "preprocessed.h"
program preprocessed
  implicit none
  integer :: a(N), i, line
  line = __LINE__
!$omp parallel
#if USE_DO
!$omp do
  do i = 1, N
    a(i) = i
  end do
#endif
!$omp single
  print *, __FILE__, line, __LINE__
!$omp end single
!$omp end parallel
  print *, sum(a)
end program
