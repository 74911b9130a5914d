! cancel and cancellation point (active with OMP_CANCELLATION=true only; the
! output does not depend on it).
! pompprof-coverage: measured=parallel,do,single,task
program cancel
  implicit none
  integer :: found, tasks, i
  found = 0; tasks = 0
!$omp parallel
!$omp do
  do i = 1, 100
    if (i == 50) then
!$omp atomic write
      found = 1
!$omp cancel do
    end if
!$omp cancellation point do
  end do
!$omp end do
!$omp single
!$omp taskgroup
  do i = 1, 4
!$omp task shared(tasks)
!$omp cancellation point taskgroup
!$omp atomic
    tasks = tasks + 1
!$omp end task
  end do
!$omp end taskgroup
!$omp end single
!$omp cancel parallel if(found == 2)
!$omp end parallel
  print *, found, tasks <= 4
end program
