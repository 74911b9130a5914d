! Fortran names in the profile: module procedures and a contained procedure.
module shapes
  implicit none
contains
  integer function area(w, h) ! line 5
    integer, intent(in) :: w, h
    area = w * h
  end function area

  subroutine grow(x) ! line 10
    integer, intent(inout) :: x
    x = x + inner(x)
  contains
    integer function inner(y) ! line 14
      integer, intent(in) :: y
      inner = 2 * y
    end function inner
  end subroutine grow
end module shapes

program names
  use shapes
  implicit none
  integer :: s
  s = 0
!$omp parallel reduction(+:s)
!$omp single
!$omp task shared(s)
  s = area(2, 3)
  call grow(s)
!$omp end task
!$omp end single
!$omp end parallel
  print '(I0)', s
end program names
