! constructs inside ASSOCIATE (and a parallel region without num_threads
! there: OPARI2 asks for the team size in the associate block)
! pompprof-coverage: measured=parallel,do,single,task instances=task:2
program associate_free
  implicit none
  integer :: total, i, n
  integer :: a(20)
  total = 0; n = 0
  a = 1
  associate (m => size(a), b => a)
!$omp parallel
!$omp do reduction(+:total)
    do i = 1, m
      total = total + b(i)
    end do
!$omp single
!$omp task shared(n)
!$omp atomic
    n = n + 1
!$omp end task
!$omp task shared(n)
!$omp atomic
    n = n + 1
!$omp end task
!$omp end single
!$omp end parallel
  end associate
  print '(2i6)', total, n
end program
