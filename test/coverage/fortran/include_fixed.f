c     directives in a file included with the INCLUDE line (fixed form)
c     pompprof-coverage: measured=parallel,single,task instances=task:1
      program incfix
      implicit none
      integer n
      n = 0
      include 'include_fixed.inc'
      print '(i6)', n
      end
