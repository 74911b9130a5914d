! e2e (compiled only): every construct and API call OPARI2 instruments in
! Fortran, so that the instrumented object references every POMP2 entry point
! OPARI2's Fortran output can call (test_e2e_symbols.sh).  Build it with
! --omp-task-untied=keep for the untied task calls.
subroutine fcalls(n)
  use omp_lib
  implicit none
  integer :: n, i, k
  integer(omp_lock_kind) :: l
  integer(omp_nest_lock_kind) :: nl
  logical :: got
!$pomp inst init
!$pomp inst begin(fcalls_user)
  call omp_init_lock(l)
  call omp_init_nest_lock(nl)
  call omp_init_lock_with_hint(l, omp_sync_hint_none)
  call omp_init_nest_lock_with_hint(nl, omp_sync_hint_none)
!$omp parallel if(n > 0) num_threads(2) private(i)
!$omp do
  do i = 1, n
  end do
!$omp end do nowait
!$omp do ordered
  do i = 1, n
!$omp ordered
!$omp end ordered
  end do
!$omp end do
!$omp sections
!$omp section
  k = 1
!$omp end sections
!$omp single
!$omp task untied
!$omp end task
!$omp task
!$omp end task
!$omp taskwait
!$omp end single
!$omp master
!$omp end master
!$omp critical
!$omp end critical
!$omp atomic
  k = k + 1
!$omp flush
!$omp barrier
!$omp workshare
  k = 2
!$omp end workshare
  call omp_set_lock(l)
  call omp_unset_lock(l)
  got = omp_test_lock(l)
  call omp_set_nest_lock(nl)
  call omp_unset_nest_lock(nl)
  k = omp_test_nest_lock(nl)
!$omp end parallel
!$omp parallel do
  do i = 1, n
  end do
!$omp end parallel do
!$omp parallel sections
!$omp section
  k = 3
!$omp end parallel sections
!$omp parallel workshare
  k = 4
!$omp end parallel workshare
  call omp_destroy_lock(l)
  call omp_destroy_nest_lock(nl)
!$pomp inst off
!$pomp inst on
!$pomp inst end(fcalls_user)
!$pomp inst finalize
end subroutine fcalls
