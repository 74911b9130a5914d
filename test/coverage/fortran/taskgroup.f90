! taskgroup with task_reduction and in_reduction.
! pompprof-coverage: measured=parallel,single,task,taskgroup
program taskgroup
  implicit none
  integer :: done, r, i
  done = 0; r = 0
!$omp parallel
!$omp single
!$omp taskgroup
  do i = 1, 6
!$omp task shared(done)
!$omp atomic
    done = done + 1
!$omp end task
  end do
!$omp end taskgroup
!$omp taskgroup task_reduction(+:r)
  do i = 1, 10
!$omp task in_reduction(+:r) firstprivate(i)
    r = r + i
!$omp end task
  end do
!$omp end taskgroup
!$omp end single
!$omp end parallel
  print *, done, r
end program
