! user-defined reductions (declare reduction) and threadprivate module data.
! pompprof-coverage: measured=parallel,do
module redmod
  implicit none
  integer :: counter = 0
!$omp threadprivate(counter)
contains
  subroutine lowest(out, in)
    integer, intent(inout) :: out
    integer, intent(in) :: in
    out = min(out, in)
  end subroutine
end module

program declare_reduction
  use redmod
  implicit none
!$omp declare reduction(low : integer : lowest(omp_out, omp_in)) initializer(omp_priv = huge(0))
  integer :: m, i
  m = huge(0)
!$omp parallel do reduction(low:m)
  do i = 1, 50
    m = min(m, mod(i * 37, 101))
    counter = counter + 1
  end do
  print *, m
end program
