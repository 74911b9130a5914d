c     labelled and nonblock DO loops (fixed form) under loop directives, with
c     and without end directives (ENDDO spelt as one word), shared
c     termination with an enclosing loop; a loop on one line
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
c     the loop construct's loop shares its terminal statement with an
c     enclosing loop: its end directive is implied
      do 50 j = 1, 3
!$omp do
         do 50 i = 1, 10
            s = s + i
   50 continue
      do 60 j = 1, 2
!$omp do
         do 60 i = 1, 10
   60 a(i, j) = a(i, j) + 1
!$omp do
      do i = 1, 10; s = s + i; end do
!$omp end parallel
      s = s + a(4, 2)
      print '(i8)', s
      end
