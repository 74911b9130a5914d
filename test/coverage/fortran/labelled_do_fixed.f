c     labelled and nonblock DO loops (fixed form) under loop directives, with
c     and without end directives (ENDDO spelt as one word)
c     pompprof-coverage: measured=parallel,do
      program labfix
      implicit none
      integer i, j, s, a(10, 10)
      s = 0
!$omp parallel shared(a) reduction(+:s)
!$omp do
      do 10 i = 1, 10
         do 10 j = 1, 10
            a(i, j) = i + j
   10 continue
!$omp do
      do 20 i = 1, 10
         s = s + a(i, 1)
   20 continue
!$omp enddo
!$omp do private(j)
      do 30, i = 1, 10
         do 31 j = 1, 10
            s = s + a(i, j)
   31    continue
   30 continue
!$OMP END DO NOWAIT
!$omp do
      do i = 1, 10
         s = s + 1
      enddo
!$omp enddo
!$omp end parallel
      print '(i8)', s
      end
