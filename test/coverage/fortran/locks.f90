! OpenMP locks and nest locks from Fortran.
! pompprof-coverage: measured=parallel
program locks
  use omp_lib
  implicit none
  integer(omp_lock_kind) :: l
  integer(omp_nest_lock_kind) :: nl
  integer :: a, b, n
  a = 0; b = 0; n = 0
  call omp_init_lock(l)
  call omp_init_nest_lock(nl)
!$omp parallel reduction(+:n)
  call omp_set_lock(l)
  a = a + 1
  call omp_unset_lock(l)
  call omp_set_nest_lock(nl)
  call omp_set_nest_lock(nl)
  b = b + 1
  call omp_unset_nest_lock(nl)
  call omp_unset_nest_lock(nl)
  n = n + 1
!$omp end parallel
  call omp_destroy_lock(l)
  call omp_destroy_nest_lock(nl)
  print *, a == n, b == n
end program
