! master taskloop and parallel master taskloop (simd).
! pompprof-coverage: measured=parallel,master,taskloop notes=taskloop
program master_taskloop
  implicit none
  integer :: a(64), i, s
  s = 0
!$omp parallel
!$omp master taskloop grainsize(8)
  do i = 1, 64
    a(i) = i
  end do
!$omp end master taskloop
!$omp end parallel
!$omp parallel master taskloop simd reduction(+:s) num_threads(2)
  do i = 1, 64
    s = s + a(i)
  end do
!$omp end parallel master taskloop simd
  print *, s
end program
