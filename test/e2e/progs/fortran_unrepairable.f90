! A user region (!$pomp inst begin) without its end: OPARI2 must refuse the
! file and no rewrite can close the region for the user.  The file is
! compiled without any measurement, none of its constructs measured.
program unrepairable
  implicit none
  integer :: n, i
  n = 0
!$pomp inst begin(phase)
!$omp parallel num_threads(2)
!$omp single
  do i = 1, 4
!$omp task shared(n)
!$omp atomic
    n = n + 1
!$omp end task
  end do
!$omp end single
!$omp end parallel
  print '(i4)', n
end program
