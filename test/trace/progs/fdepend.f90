! Trace: Fortran tasks with depend clauses (one continued over two lines);
! the wrapper marks them in OPARI2's include file (wrapper/fortran_depend_marks.py).
program fdepend
  integer :: a, b
  a = 0
  b = 0
!$omp parallel num_threads(2)
!$omp single
!$omp task depend(out:a) &
!$omp& shared(a)
  a = 1
!$omp end task
!$omp task depend(in:a) shared(a, b)
  b = a + 1
!$omp end task
!$omp task shared(a)
  a = a + 0
!$omp end task
!$omp taskwait
!$omp end single
!$omp end parallel
  print *, b
end program
