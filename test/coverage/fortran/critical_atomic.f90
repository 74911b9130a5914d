! critical (named, with hint) and atomic forms (update, read, write, capture).
! pompprof-coverage: measured=parallel,critical,atomic
program critical_atomic
  use omp_lib
  implicit none
  integer :: a, b, x, y, r, v, caps
  a = 0; b = 0; x = 0; y = 0; caps = 0
!$omp parallel private(r, v) reduction(+:caps)
!$omp critical
  a = a + 1
!$omp end critical
!$omp critical (named) hint(omp_sync_hint_contended)
  b = b + 2
!$omp end critical (named)
!$omp atomic
  x = x + 1
!$omp atomic read
  r = x
!$omp atomic write seq_cst
  y = 7
!$omp atomic capture
  v = x
  x = x + 1
!$omp end atomic
  if (v >= 0) caps = caps + 1
!$omp end parallel
  print *, 2 * a == b, x == 2 * caps, y
end program
