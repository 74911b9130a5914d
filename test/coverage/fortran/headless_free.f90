! a main program without its PROGRAM statement, implicit typing in force
! pompprof-coverage: measured=parallel,do
  s = 0
!$omp parallel do reduction(+:s)
  do i = 1, 10
    s = s + i
  end do
  print '(f8.1)', s
end
