! every atomic form (free form): update with and without the clause and the
! end directive, read, write, capture (both orders, the update-capture
! statement form, with clauses), memory orders and hint
! pompprof-coverage: measured=parallel,atomic
program atomic_free
  use omp_lib
  implicit none
  integer :: x, y, v, w, caps, r
  x = 0; y = 0; caps = 0
!$omp parallel private(v, w, r) reduction(+:caps) num_threads(4)
!$omp atomic
  x = x + 1
!$omp atomic update
  x = x + 1
!$omp atomic update
  x = x + 1
!$omp end atomic
!$omp atomic seq_cst
  x = 1 + x
!$omp atomic read
  r = x
!$omp atomic write relaxed
  y = 7
!$omp atomic capture
  v = x
  x = x + 1
!$omp end atomic
!$omp atomic capture seq_cst
  x = x + 1
  w = x
!$omp end atomic
!$omp atomic update capture
  x = x + 1
  v = x
!$omp end atomic
!$omp atomic capture hint(omp_sync_hint_none) ! with a comment
  v = x
  x = max(x, 0)
!$omp end atomic   ! end
!$omp atomic relaxed capture
  v = x
  x = x + 0
!$omp end atomic
  if (v >= 0 .and. w > 0 .and. r >= 0) caps = caps + 1
!$omp end parallel
  print *, x == 7 * caps, y
end program
