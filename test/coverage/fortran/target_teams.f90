! offload and teams constructs (host fallback): target, target data, target
! update, target teams distribute parallel do, host teams distribute.
! pompprof-coverage: measured=parallel notes=target,teams
program target_teams
  implicit none
  integer, parameter :: n = 128
  integer :: a(n), b(n), i, s
  a = [(i, i = 1, n)]; s = 0
!$omp target data map(to: a) map(from: b)
!$omp target teams distribute parallel do
  do i = 1, n
    b(i) = 2 * a(i)
  end do
!$omp end target teams distribute parallel do
!$omp target update from(b)
!$omp end target data
!$omp teams num_teams(2)
!$omp distribute
  do i = 1, n
    a(i) = a(i) + 1
  end do
!$omp end teams
!$omp target map(tofrom: s)
  do i = 1, n
    s = s + b(i)
  end do
!$omp end target
!$omp parallel num_threads(2)
!$omp end parallel
  print *, s, sum(a)
end program
