! e2e: the Fortran twin of prof_depth.c: a recursive binary task tree of
! depth 5 whose tasks name their depth through the Fortran binding of
! pompprof_parameter_int64; the root adds a string parameter.  The calls are
! guarded by POMPPROF_INSTRUMENTED (defined by the pompprof wrapper), so the
! same source builds without pompprof.  Prints the number of tasks, 63.
module fdepth_tree
  implicit none
contains
  recursive subroutine spawn(d, maxd, res)
    integer, intent(in) :: d, maxd
    integer(8), intent(inout) :: res
    integer(8) :: r(2)
    integer :: k
!$omp task firstprivate(d, maxd) private(r, k) shared(res)
#ifdef POMPPROF_INSTRUMENTED
    call pompprof_parameter_int64("depth", int(d, 8))
    if (d == 0) call pompprof_parameter_string("lang", "fortran   ")
#endif
    r = 0
    if (d < maxd) then
      do k = 1, 2
        call spawn(d + 1, maxd, r(k))
      end do
!$omp taskwait
    end if
    res = 1 + r(1) + r(2)
!$omp end task
  end subroutine spawn
end module fdepth_tree

program fdepth
  use fdepth_tree
  implicit none
  integer(8) :: total
  total = 0
!$omp parallel
!$omp single
  call spawn(0, 5, total)
!$omp taskwait
!$omp end single
!$omp end parallel
  print '(a,i0)', 'tasks=', total
end program fdepth
