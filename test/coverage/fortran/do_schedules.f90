! worksharing do loops: schedules, chunks, modifiers, collapse, lastprivate,
! nowait, ordered.
! pompprof-coverage: measured=parallel,do,ordered
program do_schedules
  implicit none
  integer, parameter :: n = 64
  integer :: a(n, 8), i, j, last, k
  integer :: seq(n)
  last = -1; k = 0
!$omp parallel
!$omp do schedule(static)
  do i = 1, n
    a(i, 1) = i
  end do
!$omp end do
!$omp do schedule(dynamic, 2)
  do i = 1, n
    a(i, 2) = 2 * i
  end do
!$omp do schedule(guided) lastprivate(last)
  do i = 1, n
    a(i, 3) = 3 * i
    last = i
  end do
!$omp end do nowait
!$omp do schedule(nonmonotonic: dynamic) collapse(2)
  do i = 1, n
    do j = 4, 6
      a(i, j) = i * j
    end do
  end do
!$omp do ordered schedule(runtime)
  do i = 1, n
!$omp ordered
    k = k + 1
    seq(k) = i
!$omp end ordered
  end do
!$omp end parallel
  print '(5i8)', sum(a(:, 1)), sum(a(:, 2)), sum(a(:, 3)), sum(a(:, 4:6)), last
  print '(l2)', all(seq == [(i, i = 1, n)])
end program
