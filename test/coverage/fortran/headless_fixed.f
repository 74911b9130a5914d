c     a main program without its PROGRAM statement (fixed form)
c     pompprof-coverage: measured=parallel,single,task instances=task:3
      integer n, i
      n = 0
!$omp parallel num_threads(2)
!$omp single
      do i = 1, 3
!$omp task shared(n)
!$omp atomic
         n = n + 1
!$omp end task
      end do
!$omp end single
!$omp end parallel
      print '(i6)', n
      end
