! master, masked with and without filter, parallel master, parallel masked.
! pompprof-coverage: measured=parallel,master,masked
program master_masked
  use omp_lib
  implicit none
  integer :: t0, t1, a, b
  t0 = -1; t1 = -1; a = -1; b = -1
!$omp parallel num_threads(2)
!$omp master
  t0 = omp_get_thread_num()
!$omp end master
!$omp masked filter(1)
  t1 = omp_get_thread_num()
!$omp end masked
!$omp masked
  t0 = t0 + 0
!$omp end masked
!$omp end parallel
!$omp parallel master
  a = omp_get_thread_num()
!$omp end parallel master
!$omp parallel masked num_threads(2) filter(1)
  b = omp_get_thread_num()
!$omp end parallel masked
  print '(4i3)', t0, t1, a, b
end program
