! module data with declare target, a module procedure with a parallel
! region that uses it; the target region runs on the host
! pompprof-coverage: measured=parallel,do notes=target
module mt_free
  implicit none
  integer :: table(10)
  real :: scale = 2.0
!$omp declare target (table, scale)
contains
  subroutine fill()
    integer :: i
!$omp parallel do
    do i = 1, 10
      table(i) = int(i * scale)
    end do
  end subroutine
end module

program module_target_free
  use mt_free
  implicit none
  integer :: s
  call fill()
  s = 0
!$omp target map(tofrom: s)
  s = sum(table)
!$omp end target
  print '(i6)', s
end program
