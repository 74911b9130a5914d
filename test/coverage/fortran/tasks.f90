! explicit tasks: data sharing, depend (in, out, inout, mutexinoutset),
! priority, final, mergeable, taskwait (also with depend), taskyield.
! pompprof-coverage: measured=parallel,single,task,taskwait,taskyield
program tasks
  implicit none
  integer :: x, y, z, n, i
  x = 0; y = 0; z = 0; n = 0
!$omp parallel
!$omp single
!$omp task depend(out: x) shared(x)
  x = 1
!$omp end task
!$omp task depend(in: x) depend(out: y) shared(x, y)
  y = x + 1
!$omp end task
!$omp task depend(inout: y) shared(y) priority(2)
  y = y * 10
!$omp end task
!$omp task depend(mutexinoutset: z) shared(z)
  z = z + 1
!$omp end task
!$omp task depend(mutexinoutset: z) shared(z) final(.true.) mergeable
  z = z + 2
!$omp end task
  do i = 1, 4
!$omp task shared(n)
!$omp taskyield
!$omp atomic
    n = n + 1
!$omp end task
  end do
!$omp taskwait depend(in: y)
!$omp taskwait
!$omp end single
!$omp end parallel
  print '(4i5)', x, y, z, n
end program
