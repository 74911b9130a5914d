! strictly structured blocks (OpenMP 5.1): a construct followed by
! BLOCK ... END BLOCK, its end directive left out or written
! pompprof-coverage: measured=parallel,do,single,task,critical,master instances=task:3
program block_free
  implicit none
  integer :: s, n, i
  s = 0; n = 0
!$omp parallel num_threads(2)
  block
    integer :: k
!$omp do reduction(+:s)
    do k = 1, 10
      s = s + k
    end do
!$omp single
    block
      do i = 1, 3
!$omp task shared(n)
        block
!$omp atomic
          n = n + 1
        end block
      end do
    end block
!$omp critical
    block
      n = n + 0
    end block
!$omp end critical
  end block
!$omp parallel num_threads(2)
  block
!$omp master
    block
      s = s + 0
    end block
  end block
!$omp end parallel
  print '(2i6)', s, n
end program
