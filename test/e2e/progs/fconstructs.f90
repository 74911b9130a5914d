! e2e: Fortran (free form) OpenMP constructs instrumented by pompprof.
! Prints only what is the same for every thread count.
program fconstructs
  use omp_lib
  implicit none
  integer, parameter :: n = 1000, ntasks = 7, nordered = 5
  integer :: i, total, nthr, crit, singles, masters, sect, tasks, locked, nested, order
  integer(omp_lock_kind) :: lck
  integer(omp_nest_lock_kind) :: nlck

  total = 0; nthr = 0; crit = 0; singles = 0; masters = 0
  sect = 0; tasks = 0; locked = 0; nested = 0; order = 0
  call omp_init_lock(lck)
  call omp_init_nest_lock(nlck)

!$omp parallel do reduction(+:total)
  do i = 1, n
    total = total + i
  end do
!$omp end parallel do

!$omp parallel shared(nthr, crit, singles, masters, sect, tasks, locked, nested) private(i)
!$omp critical (count)
  crit = crit + 1
!$omp end critical (count)
!$omp single
  singles = singles + 1
!$omp end single
!$omp master
  masters = masters + 1
  nthr = omp_get_num_threads()
!$omp end master
!$omp barrier
!$omp sections
!$omp section
!$omp atomic
  sect = sect + 1
!$omp section
!$omp atomic
  sect = sect + 10
!$omp end sections
!$omp single
  do i = 1, ntasks
!$omp task shared(tasks)
!$omp atomic
    tasks = tasks + 1
!$omp end task
  end do
!$omp taskwait
!$omp end single
  call omp_set_lock(lck)
  locked = locked + 1
  call omp_unset_lock(lck)
  call omp_set_nest_lock(nlck)
  call omp_set_nest_lock(nlck)
  nested = nested + 1  ! another counter: lck does not guard this one
  call omp_unset_nest_lock(nlck)
  call omp_unset_nest_lock(nlck)
!$omp end parallel

!$omp parallel do ordered
  do i = 1, nordered
!$omp ordered
    order = order * 10 + i
!$omp end ordered
  end do
!$omp end parallel do

  call omp_destroy_lock(lck)
  call omp_destroy_nest_lock(nlck)
  print '(a,i0)', 'total=', total
  print '(a,l1)', 'one per thread=', crit == nthr .and. locked == nthr .and. nested == nthr
  print '(a,i0,1x,i0,1x,i0,1x,i0)', 'single master sections tasks=', singles, masters, sect, tasks
  print '(a,i0)', 'ordered=', order
end program fconstructs
