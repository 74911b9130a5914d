! continued directive lines (free form): "&" at the end, with and without
! "!$omp&" on the next line, a comment after the "&", a continued end
! directive; a continued statement after a directive; a directive line
! OPARI2 would make longer than 132 columns.
! pompprof-coverage: measured=parallel,do,single,task instances=task:8
program continuation_free
  implicit none
  integer :: i, s, n
  s = 0; n = 0
!$omp parallel &
!$omp   num_threads(3) &   ! a comment after the ampersand
!$omp   shared(s, n)
!$omp do &
!$omp&  schedule(static, 4) &
!$omp&  reduction(+:s)
  do i = 1, &
         60
    s = s + &
        i
  end do
!$omp end &
!$omp do
!$omp single
  do i = 1, 6
!$omp task &
!$omp   shared(n) &
!$omp   firstprivate(i)
!$omp atomic
    n = n + i
!$omp end task
  end do
  do i = 1, 2
!$omp task shared(n) firstprivate(i) default(none) depend(inout: n) priority(0) mergeable if(.true.) final(.false.)
!$omp atomic
    n = n + 10 * i
!$omp end task
  end do
!$omp end single
!$omp end parallel
  print '(2i6)', s, n
end program
