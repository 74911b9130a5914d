c     a continued declare variant directive (fixed form)
c     pompprof-coverage: measured=parallel,do
      module dvfix
      implicit none
      contains
      integer function basef(x)
      integer, intent(in) :: x
!$omp declare variant (varf)
!$omp&   match (construct={parallel})
      basef = x
      end function
      integer function varf(x)
      integer, intent(in) :: x
      varf = x
      end function
      end module

      program dvfixp
      use dvfix
      implicit none
      integer s, i
      s = 0
!$omp parallel do reduction(+:s)
      do i = 1, 10
         s = s + basef(i)
      end do
      print '(i6)', s
      end
