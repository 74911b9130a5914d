! Fortran: a dynamically scheduled loop, sections, a single creating tasks
! and waiting for them, critical, locks.  The output does not depend on the
! number of threads.
program fortran
  use omp_lib
  implicit none
  integer :: i, total, crit, sect, tasks, locked
  integer(omp_lock_kind) :: lck

  total = 0; crit = 0; sect = 0; tasks = 0; locked = 0
  call omp_init_lock(lck)
!$omp parallel shared(total, crit, sect, tasks, locked) private(i)
!$omp do schedule(dynamic, 10) reduction(+:total)
  do i = 1, 100
    total = total + i
  end do
!$omp end do
!$omp sections
!$omp section
!$omp critical (count)
  sect = sect + 1
!$omp end critical (count)
!$omp section
!$omp critical (count)
  sect = sect + 10
!$omp end critical (count)
!$omp end sections
!$omp single
  do i = 1, 6
!$omp task shared(tasks)
!$omp critical
    tasks = tasks + 1
!$omp end critical
!$omp end task
  end do
!$omp taskwait
!$omp end single
!$omp critical
  crit = crit + 1
!$omp end critical
  call omp_set_lock(lck)
  locked = locked + 1
  call omp_unset_lock(lck)
!$omp end parallel
  call omp_destroy_lock(lck)
  print '(a,i0,1x,i0,1x,i0)', 'total sections tasks=', total, sect, tasks
  print '(a,l1)', 'one per thread=', crit == locked
end program fortran
