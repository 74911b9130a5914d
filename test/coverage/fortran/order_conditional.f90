! order(concurrent) and lastprivate(conditional:) on worksharing loops,
! if(parallel:) modifier.
! pompprof-coverage: measured=parallel,do
program order_conditional
  implicit none
  integer :: a(64), i, x, n
  x = -1; n = 64
!$omp parallel if(parallel: n > 8)
!$omp do order(concurrent)
  do i = 1, 64
    a(i) = 3 * i
  end do
!$omp do lastprivate(conditional: x)
  do i = 1, 64
    if (mod(a(i), 10) == 0) x = i
  end do
!$omp end parallel
  print *, x, sum(a)
end program
