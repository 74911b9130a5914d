! simd, do simd, parallel do simd, declare simd.
! pompprof-coverage: measured=parallel,do
module simdmod
contains
  integer function twice(v)
!$omp declare simd(twice)
    integer, value :: v
    twice = 2 * v
  end function
end module

program simd
  use simdmod
  implicit none
  integer :: a(200), i, s, t
  s = 0; t = 0
!$omp simd reduction(+:s) safelen(8)
  do i = 1, 200
    a(i) = twice(i)
    s = s + a(i)
  end do
!$omp end simd
!$omp parallel
!$omp do simd reduction(+:t)
  do i = 1, 200
    t = t + a(i)
  end do
!$omp end parallel
!$omp parallel do simd num_threads(2)
  do i = 1, 200
    a(i) = a(i) + 1
  end do
  print *, s, t, sum(a)
end program
