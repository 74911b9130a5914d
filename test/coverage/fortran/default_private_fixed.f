c     a combined construct under DEFAULT(PRIVATE) with LASTPRIVATE and
c     REDUCTION: the parallel must share what the loop writes back
c     pompprof-coverage: measured=parallel,do
      program defpri
      integer i, j, a, s
      a = 0
      s = 0
!$OMP PARALLEL DO DEFAULT(PRIVATE) PRIVATE(J) LASTPRIVATE(A)
!$OMP& REDUCTION(+:S)
      do i = 1, 100
         j = i * 2
         a = j
         s = s + 1
      end do
!$OMP END PARALLEL DO
      print '(2i6)', a, s
      end
