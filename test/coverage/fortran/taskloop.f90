! taskloop (grainsize, num_tasks, reduction, lastprivate, nogroup) and
! taskloop simd, with and without end directives.
! pompprof-coverage: measured=parallel,single,taskloop notes=taskloop
program taskloop
  implicit none
  integer :: a(100), i, last
  integer :: s
  s = 0; last = 0
!$omp parallel
!$omp single
!$omp taskloop grainsize(10)
  do i = 1, 100
    a(i) = i
  end do
!$omp end taskloop
!$omp taskloop num_tasks(4) reduction(+:s) lastprivate(last)
  do i = 1, 100
    s = s + a(i)
    last = i
  end do
!$omp taskloop simd nogroup
  do i = 1, 100
    a(i) = a(i) + 1
  end do
!$omp taskwait
!$omp end single
!$omp end parallel
  print *, s, last, sum(a)
end program
