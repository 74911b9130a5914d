! doacross loops: do ordered(1) with "ordered depend(sink: ...)" and
! "ordered depend(source)".
! pompprof-coverage: measured=parallel,do,ordered
program doacross
  implicit none
  integer, parameter :: n = 40
  integer :: a(n), i
  a(1) = 1
!$omp parallel
!$omp do ordered(1)
  do i = 2, n
!$omp ordered depend(sink: i - 1)
    a(i) = a(i - 1) + i
!$omp ordered depend(source)
  end do
!$omp end parallel
  print *, a(n)
end program
