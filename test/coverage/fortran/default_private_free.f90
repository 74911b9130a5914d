! a combined construct under default(firstprivate) with lastprivate and
! reduction: the parallel must share what the loop writes back
! pompprof-coverage: measured=parallel,do
program default_private_free
  implicit none
  integer :: i, a, s, k
  a = 0; s = 0; k = 3
!$omp parallel do default(firstprivate) lastprivate(a) reduction(+:s)
  do i = 1, 100
    a = i * k
    s = s + 1
  end do
  print '(2i6)', a, s
end program
