! Fortran dependence graphs with known edges (creation order, as
! depend_graphs.c), for test_trace_depend.py:
!   0 out x; 1, 2 in x; 3 inout x                 0->1 0->2 1->3 2->3
!   4 out y; 5, 6 mutexinoutset y; 7 in y         4->5 4->6 5->7 6->7
!   8 out v(3:6); 9 in v(3) (the same address)    8->9
!   10 out m(2:3, 1:2); 11 in m(2, 1)             10->11
!   12 out v; 13 in v (whole array)               12->13
!   14 out w; 15 out q; taskwait depend(in: w)
program fdepend_graphs
  implicit none
  integer :: x, y, w, q
  integer :: v(8), m(4, 4)
  integer(8) :: r(20)
  x = 0
  y = 0
  w = 0
  q = 0
  v = 0
  m = 0
  r = 0
!$omp parallel num_threads(2)
!$omp single
!$omp task depend(out: x) shared(x, r)
  x = 1
  r(1) = spin(1)
!$omp end task
!$omp task depend(in: x) shared(x, r)
  r(2) = spin(2) + x
!$omp end task
!$omp task depend(in: x) shared(x, r)
  r(3) = spin(3) + x
!$omp end task
!$omp task depend(inout: x) shared(x, r)
  x = 2
  r(4) = spin(4)
!$omp end task
!$omp taskwait
!$omp task depend(out: y) shared(y, r)
  y = 1
  r(5) = spin(5)
!$omp end task
!$omp task depend(mutexinoutset: y) shared(r)
  r(6) = spin(6)
!$omp end task
!$omp task depend(mutexinoutset: y) shared(r)
  r(7) = spin(7)
!$omp end task
!$omp task depend(in: y) shared(y, r)
  r(8) = spin(8) + y
!$omp end task
!$omp taskwait
!$omp task depend(out: v(3:6)) shared(v, r)
  v(3) = 1
  r(9) = spin(9)
!$omp end task
!$omp task depend(in: v(3)) shared(v, r)
  r(10) = spin(10) + v(3)
!$omp end task
!$omp task depend(out: m(2:3, 1:2)) shared(m, r)
  m(2, 1) = 1
  r(11) = spin(11)
!$omp end task
!$omp task depend(in: m(2, 1)) shared(m, r)
  r(12) = spin(12) + m(2, 1)
!$omp end task
!$omp taskwait
!$omp task depend(out: v) shared(v, r)
  v(8) = 1
  r(13) = spin(13)
!$omp end task
!$omp task depend(in: v) shared(v, r)
  r(14) = spin(14) + v(8)
!$omp end task
!$omp taskwait
!$omp task depend(out: w) shared(w, r)
  w = 1
  r(15) = spin(15)
!$omp end task
!$omp task depend(out: q) shared(q, r)
  q = 1
  r(16) = spin(16)
!$omp end task
!$omp taskwait depend(in: w)
  r(17) = w
!$omp taskwait
!$omp end single
!$omp end parallel
  print '(a, i0)', 'fortran depend graphs: ', sum(mod(r, 1000_8))
contains
  integer(8) function spin(seed)
    integer, intent(in) :: seed
    integer :: i
    spin = seed
    do i = 1, 200000
      spin = mod(spin * 6364136223_8 + 1442695_8, 2147483647_8)
    end do
  end function
end program
