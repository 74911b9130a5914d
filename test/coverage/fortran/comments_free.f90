! directive and end-directive lines with trailing comments (free form);
! the tasks are counted: 2 per thread of the team.
! pompprof-coverage: measured=parallel,single,task,taskwait,do,critical instances=task:8
program comments_free
  implicit none
  integer :: p, i, n, s
  n = 0; s = 0
!$omp parallel private(p) num_threads(4) ! the team: four threads
!$omp single   ! one thread creates the tasks
  do p = 1, 8
!$OMP TASK   ! P is firstprivate by default
    call work(p, n)
!$OMP END TASK   ! end of the task
  end do
!$omp taskwait ! all of them
!$omp end single ! implicit barrier
!$omp do reduction(+:s)  ! a loop
  do i = 1, 100
    s = s + i
  end do
!$omp end do   ! with its own end
!$omp critical (c1) ! named
  n = n + 0
!$omp end critical (c1) ! end
!$omp end parallel ! done
  print '(2i6)', n, s
contains
  subroutine work(p, n)
    integer, intent(in) :: p
    integer, intent(inout) :: n
!$omp atomic ! update
    n = n + p
  end subroutine
end program
