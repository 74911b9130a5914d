! e2e: nested Fortran parallel regions (run with OMP_MAX_ACTIVE_LEVELS=2):
! each inner team must learn its fork context through /pomp_tpd/.
program fnested
  implicit none
  integer :: outer, inner
  outer = 0
  inner = 0
!$omp parallel num_threads(2) reduction(+:outer, inner)
  outer = outer + 1
!$omp parallel num_threads(2) reduction(+:inner)
  inner = inner + 1
!$omp end parallel
!$omp end parallel
  print '(a,l1)', 'consistent=', inner >= outer .and. outer >= 1
end program fnested
