! Fixed-form Fortran list items against the addresses the program computes
! (DEPEND_ITEMS, as depend_items.c): a scalar, a section continued over a
! directive line whose recording call needs three lines, an element.
      program fdepend_items
      implicit none
      integer a, vec(100), k, u
      character(len=256) path
      a = 0
      do k = 1, 100
        vec(k) = k
      end do
      call get_environment_variable('DEPEND_ITEMS', path)
      u = 10
      if (len_trim(path) .eq. 0) path = '/dev/null'
      open(u, file=trim(path))
      write(u, '(i0,1x,i0,1x,i0,1x,i0)') 0, loc(a), sizeof(a), 2
      write(u, '(i0,1x,i0,1x,i0,1x,i0)') 0, loc(vec(10)),
     &  loc(vec(90)) - loc(vec(10)) + sizeof(vec(10)), 1
      write(u, '(i0,1x,i0,1x,i0,1x,i0)') 1, loc(a), sizeof(a), 1
      write(u, '(i0,1x,i0,1x,i0,1x,i0)') 1, loc(vec(5)), sizeof(vec(5)),
     &  3
      close(u)
!$omp parallel num_threads(2)
!$omp single
!$omp task depend(out: a) shared(a, vec)
!$omp& depend(in: vec(k-k+10:k-k+90))
      a = vec(10)
!$omp end task
!$omp task depend(in: a) depend(inout: vec(5)) shared(a, vec)
      vec(5) = a + 1
!$omp end task
!$omp taskwait
!$omp end single
!$omp end parallel
      print *, vec(5)
      end
