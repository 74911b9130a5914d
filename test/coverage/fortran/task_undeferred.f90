! undeferred tasks: if(.false.) and if(expression), recursive.
! pompprof-coverage: measured=parallel,single,task,taskwait
module fibmod
contains
  recursive integer function fib(n) result(r)
    integer, intent(in) :: n
    integer :: a, b
    if (n < 2) then
      r = n
      return
    end if
!$omp task shared(a) if(n > 12)
    a = fib(n - 1)
!$omp end task
!$omp task shared(b) if(.false.)
    b = fib(n - 2)
!$omp end task
!$omp taskwait
    r = a + b
  end function
end module

program task_undeferred
  use fibmod
  implicit none
  integer :: r
!$omp parallel
!$omp single
  r = fib(16)
!$omp end single
!$omp end parallel
  print *, r
end program
