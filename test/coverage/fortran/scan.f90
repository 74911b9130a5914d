! scan directives: inclusive and exclusive prefix sums.
! pompprof-coverage: measured=parallel,do
program scan
  implicit none
  integer, parameter :: n = 64
  integer :: a(n), inc(n), exc(n), i, s, t
  s = 0; t = 0
  a = [(mod(i, 7), i = 1, n)]
!$omp parallel
!$omp do reduction(inscan, +:s)
  do i = 1, n
    s = s + a(i)
!$omp scan inclusive(s)
    inc(i) = s
  end do
!$omp do reduction(inscan, +:t)
  do i = 1, n
    exc(i) = t
!$omp scan exclusive(t)
    t = t + a(i)
  end do
!$omp end parallel
  print *, inc(n), exc(n), s, t
end program
