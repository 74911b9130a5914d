! a preprocessed source (.F90): macros, #if, #include'd directives, and a
! trailing comment on a directive in a macro-conditional part
! pompprof-coverage: measured=parallel,single,task,do instances=task:3
#define NTASKS 3
program preproc_free
  implicit none
  integer :: n, i, s
  n = 0; s = 0
!$omp parallel num_threads(2)
!$omp single
  do i = 1, NTASKS
#if NTASKS > 2
!$omp task shared(n)  ! counted
!$omp atomic
    n = n + 1
!$omp end task
#endif
  end do
!$omp end single
!$omp do reduction(+:s)
  do 10 i = 1, 10
    s = s + i
10 continue
!$omp end parallel
  print '(2i6)', n, s
end program
