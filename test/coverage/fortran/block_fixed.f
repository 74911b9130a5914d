c     strictly structured blocks in fixed form: BLOCK ... END BLOCK after a
c     construct, with and without its end directive
c     pompprof-coverage: measured=parallel,single,task,critical instances=task:3
      program blkfix
      implicit none
      integer s, n, i
      s = 0
      n = 0
!$omp parallel num_threads(2)
      block
         integer k
         k = 1
!$omp single
         block
            do i = 1, 3
!$omp task shared(n)
               block
!$omp atomic
                  n = n + k
               endblock
            end do
         end block
!$omp end single
!$omp critical
         block
            s = s + 1
         end block
      end block
!$omp end parallel
      print '(i6)', n
      end
