! directives in a file included with the Fortran INCLUDE line (twice)
! pompprof-coverage: measured=parallel,single,task,do instances=task:2
program include_free
  implicit none
  integer :: n, i, s
  n = 0; s = 0
  include 'include_free.inc'
  INCLUDE "include_free.inc"
!$omp parallel do reduction(+:s)
  do i = 1, 5
    s = s + i
  end do
  print '(2i6)', n, s
end program
