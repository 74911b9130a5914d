! e2e: Fortran (preprocessed: .F90) calling an instrumented C function, from
! serial code and from inside a Fortran parallel region.  The interface body's
! IMPORT must stay first (OPARI2 puts its INCLUDE before it; pompprof moves it).
#define NCALLS 3
program fmixed
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  interface
    function fmixed_c_sum(n) bind(c) result(s)
      import :: c_int
      integer(c_int), value :: n
      integer(c_int) :: s
    end function
  end interface
  integer :: k, s, good
  s = 0
  do k = 1, NCALLS
    s = s + fmixed_c_sum(100)
  end do
  good = 0
!$omp parallel reduction(+:good)
  if (fmixed_c_sum(10) == 55) good = good + 1
!$omp end parallel
  print '(a,i0,a,l1)', 'sum=', s, ' good=', good >= 1
end program fmixed
