c     fixed form with directive continuations, combined constructs and
c     a taskloop.
c     pompprof-coverage: measured=parallel,do,taskloop notes=taskloop
      program fixed
      implicit none
      integer a(100), i, s
      s = 0
!$omp parallel do
!$omp& schedule(static) reduction(+:s)
      do 10 i = 1, 100
         a(i) = i
         s = s + i
   10 continue
!$omp parallel
!$omp master taskloop grainsize(10)
      do i = 1, 100
         a(i) = a(i) * 2
      end do
!$omp end parallel
c$omp parallel do simd if(parallel: s .gt. 0) reduction(+:s)
      do i = 1, 100
         s = s + a(i)
      end do
      print *, s
      end
