! e2e: the rest of the Fortran POMP2 API: untied tasks (built with
! --omp-task-untied=keep), test locks, flush, user regions, inst on/off.
program fapi
  use omp_lib
  implicit none
  integer :: n, k
  integer(omp_lock_kind) :: lck
  integer(omp_nest_lock_kind) :: nlck
!$pomp inst init
  n = 0
  call omp_init_lock(lck)
  call omp_init_nest_lock(nlck)
!$pomp inst begin(fapi_user)
!$omp parallel private(k) shared(n)
!$omp single
  do k = 1, 3
!$omp task untied shared(n)
!$omp atomic
    n = n + 1
!$omp end task
  end do
!$omp end single
!$omp flush
  if (omp_test_lock(lck)) call omp_unset_lock(lck)
  if (omp_test_nest_lock(nlck) > 0) call omp_unset_nest_lock(nlck)
!$omp end parallel
!$pomp inst end(fapi_user)
!$pomp inst off
!$omp parallel workshare
  n = n + 0
!$omp end parallel workshare
!$pomp inst on
  call omp_destroy_lock(lck)
  call omp_destroy_nest_lock(nlck)
  print '(a,i0)', 'n=', n
!$pomp inst finalize
end program fapi
