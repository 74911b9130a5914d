! What the wrapper's passes over OPARI2's output act on in Fortran
! (test_e2e_opari2_layout.py): tasks with depend clauses (their marks in
! OPARI2's include file, their recording), a taskwait depend.
program opari2_layout
  integer :: a, b
  a = 0
  b = 0
!$omp parallel
!$omp single
!$omp task depend(out: a) shared(a)
  a = 1
!$omp end task
!$omp task depend(in: a) depend(out: b) &
!$omp& shared(a, b)
  b = a + 1
!$omp end task
!$omp taskwait depend(in: b)
!$omp end single
!$omp end parallel
  print *, a, b
end program
