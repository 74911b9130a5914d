c     directive and end-directive lines with trailing comments (fixed form)
c     pompprof-coverage: measured=parallel,do,single,task instances=task:8
      program comfix
      implicit none
      integer i, n, s, p
      n = 0
      s = 0
!$OMP PARALLEL DO REDUCTION(+:S)   ! a combined construct
      do i = 1, 100
         s = s + i
      end do
!$OMP END PARALLEL DO   ! with a comment after its end
!$omp parallel num_threads(4)    ! team
!$omp single ! one creator
      do p = 1, 8
!$omp task shared(n)   ! counted
!$omp atomic
         n = n + p
!$omp end task    ! end of task
      end do
!$omp end single   ! barrier
!$omp end parallel  ! end
      print '(2i6)', n, s
      end
