! sections with firstprivate, lastprivate, reduction; parallel sections.
! pompprof-coverage: measured=parallel,sections,section
program sections
  implicit none
  integer :: a, b, f, last, r
  a = 0; b = 0; f = 10; last = 0; r = 0
!$omp parallel
!$omp sections firstprivate(f) lastprivate(last) reduction(+:r)
!$omp section
  a = f + 1; last = 1; r = r + 1
!$omp section
  b = f + 2; last = 2; r = r + 2
!$omp end sections
!$omp end parallel
!$omp parallel sections num_threads(2)
!$omp section
  a = a * 2
!$omp section
  b = b * 2
!$omp end parallel sections
  print '(4i5)', a, b, last, r
end program
