! the error directive (run-time warning) and scope (OpenMP 5.1).
! pompprof-coverage: measured=parallel notes=scope
program error_scope
  implicit none
  integer :: total, teams
  total = 0; teams = 0
!$omp parallel reduction(+:teams)
  teams = teams + 1
!$omp scope reduction(+:total)
  total = total + 1
!$omp end scope
!$omp end parallel
!$omp parallel num_threads(1)
!$omp error at(execution) severity(warning) message("a run-time warning")
!$omp end parallel
  print *, total == teams
end program
