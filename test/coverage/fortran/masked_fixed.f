c     masked (fixed form), with and without filter
c     pompprof-coverage: measured=parallel,masked,task instances=task:2
      program maskfix
      implicit none
      integer n
      n = 0
!$omp parallel num_threads(2)
!$omp masked
!$omp task shared(n)
!$omp atomic
      n = n + 1
!$omp end task
!$omp end masked
!$omp barrier
!$omp masked filter(0)
!$omp task shared(n)
!$omp atomic
      n = n + 100
!$omp end task
!$omp end masked
!$omp end parallel
      print '(i6)', n
      end
