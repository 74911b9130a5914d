! a continued declare variant directive in a module procedure, next to
! measured constructs
! pompprof-coverage: measured=parallel,do
module dv_free
  implicit none
contains
  integer function base_f(x)
    integer, intent(in) :: x
!$omp declare variant (variant_f) &
!$omp   match (construct={parallel})
    base_f = x
  end function
  integer function variant_f(x)
    integer, intent(in) :: x
    variant_f = x
  end function
end module

program declare_variant_free
  use dv_free
  implicit none
  integer :: s, i
  s = 0
!$omp parallel do reduction(+:s)
  do i = 1, 10
    s = s + base_f(i)
  end do
  print '(i6)', s
end program
