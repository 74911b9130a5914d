! masked, with and without filter, with trailing comments; a task inside
! pompprof-coverage: measured=parallel,masked,task instances=task:2
program masked_free
  use omp_lib
  implicit none
  integer :: n
  n = 0
!$omp parallel num_threads(2)
!$omp masked   ! the primary thread
!$omp task shared(n)
!$omp atomic
  n = n + 1
!$omp end task
!$omp end masked
!$omp masked filter(1)
  n = n + 10
!$omp end masked ! done
!$omp barrier
!$omp masked filter(0)
!$omp task shared(n)
!$omp atomic
  n = n + 100
!$omp end task
!$omp end masked
!$omp end parallel
  print '(i6)', mod(n, 10) + n / 100 * 100
end program
