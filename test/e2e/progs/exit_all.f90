! Every thread of a team ends the program with STOP inside the parallel
! region (quiet, so that the output does not depend on how many threads get
! to print "STOP" before the first one ends the process).
program exit_all
  implicit none
  integer :: i, s
  s = 0
!$omp parallel do reduction(+:s)
  do i = 1, 1000
    s = s + i
  end do
  print '(a, i8)', 'sum', s
  flush(6)
!$omp parallel
!$omp barrier
  stop 3, quiet=.true.
!$omp end parallel
  print *, 'not reached'
end program
