! labelled and nonblock DO loops under loop directives, with and without
! their end directives; a named DO construct; a loop on one line; shared
! termination with an enclosing loop
! pompprof-coverage: measured=parallel,do
program labelled_do_free
  implicit none
  integer :: i, j, s, a(10, 10)
  s = 0
!$omp parallel shared(a) reduction(+:s)
!$omp do
  do 10 i = 1, 10
    do 10 j = 1, 10
      a(i, j) = i + j
10 continue
!$omp do
  do 20 i = 1, 10
    s = s + a(i, 1)
20 end do
!$omp end do
!$omp do private(j)
  outer: do i = 1, 10
    do 30 j = 1, 10
      s = s + a(i, j)
30  continue
  end do outer
!$omp end do nowait
!$omp do collapse(2)
  do 40 i = 1, 10
    do 40 j = 1, 10
40    s = s + 1
!$omp end do
  ! shared termination with an enclosing loop: the end directive is implied
  do 50 j = 1, 3
!$omp do
    do 50 i = 1, 10
      s = s + i
50 continue
!$omp do
  do i = 1, 10; s = s + i; end do
!$omp end parallel
  print '(i8)', s
end program
