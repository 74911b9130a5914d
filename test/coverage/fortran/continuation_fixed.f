c     continued directive lines (fixed form): continuation characters in
c     column 6 of the sentinel lines, a comment after them, a continued
c     end directive, continued statements
c     pompprof-coverage: measured=parallel,do,single,task instances=task:6
      program contfix
      implicit none
      integer i, s, n
      s = 0
      n = 0
!$omp parallel
!$omp+num_threads(3)          ! a comment on the continuation
c$omp&shared(s, n)
*$omp do schedule(static, 4)
*$omp1reduction(+:s)
      do i = 1,
     &      60
         s = s +
     &       i
      end do
!$omp end
!$omp&do
!$omp single
      do i = 1, 6
!$omp task shared(n)
!$omp&firstprivate(i)
!$omp atomic
         n = n + i
!$omp end task
      end do
!$omp end single
!$omp end parallel
      print '(2i6)', s, n
      end
