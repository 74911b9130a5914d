c     conditional compilation lines (fixed form: !$, c$, *$ in columns 1-2),
c     also continued
c     pompprof-coverage: measured=parallel,single,task,do instances=task:4
      program condfix
!$    use omp_lib
      implicit none
      integer n, i, s, t
      n = 0
      s = 0
      t = 1
!$    t = omp_get_max_threads()
!$   &    * 0 + 1
!$omp parallel num_threads(2)
!$omp single
      do i = 1, 4
c$    if (.true.) then
!$omp task shared(n)
!$omp atomic
         n = n + 1
!$omp end task
*$    end if
      end do
!$omp end single
!$omp do reduction(+:s)
      do i = 1, 10
!$       s = s + 1
      end do
!$omp end parallel
      print '(3i6)', n, s, t
      end
