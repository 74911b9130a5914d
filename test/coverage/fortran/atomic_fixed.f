c     every atomic form in fixed form, capture ones included
c     pompprof-coverage: measured=parallel,atomic
      program atofix
      implicit none
      integer x, y, v, w, caps, r
      x = 0
      y = 0
      caps = 0
!$omp parallel private(v, w, r) reduction(+:caps) num_threads(4)
!$omp atomic
      x = x + 1
!$omp atomic update
      x = x + 1
!$omp end atomic
!$omp atomic read
      r = x
!$omp atomic write
      y = 7
!$omp atomic capture
      v = x
      x = x + 1
!$omp end atomic
!$omp atomic capture
      x = x + 1
      w = x
!$omp end atomic
!$omp atomic
!$omp&capture seq_cst
      v = x
      x = x + 1
!$omp end atomic
      if (v .ge. 0 .and. w .gt. 0 .and. r .ge. 0) caps = caps + 1
!$omp end parallel
      print *, x .eq. 5 * caps, y
      end
