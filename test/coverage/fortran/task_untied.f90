! untied tasks, untied before another clause.
! pompprof-coverage: measured=parallel,single,untied_task
program task_untied
  implicit none
  integer :: a, b
  a = 0; b = 0
!$omp parallel
!$omp single
!$omp task untied final(a > 100) shared(a)
  a = 1
!$omp end task
!$omp task shared(b) untied
  b = 2
!$omp end task
!$omp end single
!$omp end parallel
  print *, a, b
end program
