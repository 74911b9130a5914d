! the loop construct and combined parallel loop.
! pompprof-coverage: measured=parallel notes=loop
program loop
  implicit none
  integer :: a(100), i, s
  s = 0
!$omp parallel
!$omp loop bind(parallel)
  do i = 1, 100
    a(i) = i
  end do
!$omp end loop
!$omp end parallel
!$omp parallel loop reduction(+:s)
  do i = 1, 100
    s = s + a(i)
  end do
!$omp end parallel loop
  print *, s
end program
