c     constructs inside ASSOCIATE in fixed form
c     pompprof-coverage: measured=parallel,do
      program assfix
      implicit none
      integer total, i
      integer a(20)
      total = 0
      a = 2
      associate (m => size(a), b => a)
!$omp parallel do reduction(+:total)
      do i = 1, m
         total = total + b(i)
      end do
!$omp end parallel do
      end associate
      print '(i6)', total
      end
