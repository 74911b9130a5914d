! flush (plain, list, memory orders) and explicit barrier.
! pompprof-coverage: measured=parallel,flush,barrier
program flush_barrier
  use omp_lib
  implicit none
  integer :: data, flag, a(64), me, n, i, ok
  data = 0; flag = 0; a = 0; ok = 1
!$omp parallel private(me, n, i)
  me = omp_get_thread_num(); n = omp_get_num_threads()
  do i = me + 1, 64, n
    a(i) = i
  end do
!$omp barrier
!$omp single
  data = 42
!$omp flush
!$omp flush(data, flag)
!$omp flush release
  flag = 1
!$omp flush acquire
!$omp end single
!$omp end parallel
  if (any(a /= [(i, i = 1, 64)])) ok = 0
  print *, data, flag, ok
end program
