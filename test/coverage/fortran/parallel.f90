! parallel with clauses: num_threads, if, default(none), shared, private,
! firstprivate, reduction, proc_bind, copyin of a threadprivate common block.
! pompprof-coverage: measured=parallel
program parallel_clauses
  implicit none
  integer :: n, s, p, f, r
  integer :: tp
  common /tpc/ tp
!$omp threadprivate(/tpc/)
  n = 100; s = 0; f = 7; r = 0; tp = 11
!$omp parallel num_threads(3) if(n > 10) default(none) shared(s) private(p) &
!$omp& firstprivate(f) reduction(+:r) proc_bind(close) copyin(/tpc/)
  p = f + tp
  r = r + p
!$omp atomic
  s = s + 1
!$omp end parallel
  print '(3i6)', s, r, r / s
end program
