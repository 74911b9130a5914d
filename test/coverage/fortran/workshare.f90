! workshare and parallel workshare over array syntax, where and forall.
! pompprof-coverage: measured=parallel,workshare
program workshare
  implicit none
  integer :: a(100), b(100), i
  a = [(i, i = 1, 100)]
!$omp parallel
!$omp workshare
  b = 2 * a
  where (b > 100) b = 100
!$omp end workshare
!$omp end parallel
!$omp parallel workshare
  a = a + b
!$omp end parallel workshare
  print *, sum(a), sum(b)
end program
