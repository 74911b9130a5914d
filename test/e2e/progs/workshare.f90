! e2e: Fortran workshare through pompprof
program workshare_demo
  implicit none
  integer :: a(100), b(100), i
  b = [(i, i = 1, 100)]
!$omp parallel
!$omp workshare
  a = 2 * b
!$omp end workshare
!$omp end parallel
  print '(a,i0)', 'sum=', sum(a)
end program
