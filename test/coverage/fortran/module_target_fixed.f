c     module data with declare target (fixed form)
c     pompprof-coverage: measured=parallel,do
      module mtfix
      implicit none
      integer table(10)
!$omp declare target (table)
      contains
      subroutine fill()
      integer i
!$omp parallel do
      do i = 1, 10
         table(i) = 3 * i
      end do
      end subroutine
      end module

      program mtfixp
      use mtfix
      implicit none
      call fill()
      print '(i6)', sum(table)
      end
