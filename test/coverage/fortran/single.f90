! single with copyprivate and nowait.
! pompprof-coverage: measured=parallel,single
program single
  implicit none
  integer :: v, agreed, cnt
  agreed = 0; cnt = 0
!$omp parallel private(v) reduction(+:agreed, cnt)
!$omp single
  v = 42
!$omp end single copyprivate(v)
  if (v == 42) agreed = agreed + 1
  cnt = cnt + 1
!$omp single
  v = 0
!$omp end single nowait
!$omp end parallel
  print *, agreed == cnt
end program
