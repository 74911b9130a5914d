C     e2e: fixed-form Fortran through pompprof (parallel do, parallel
C     sections, critical); ends with STOP 3 to check the exit status.
      PROGRAM FFIXED
      IMPLICIT NONE
      INTEGER I, S, T
      S = 0
      T = 0
!$OMP PARALLEL DO REDUCTION(+:S)
      DO 10 I = 1, 100
         S = S + I
   10 CONTINUE
!$OMP END PARALLEL DO
C$OMP PARALLEL SECTIONS
C$OMP SECTION
C$OMP CRITICAL
      T = T + 1
C$OMP END CRITICAL
C$OMP SECTION
C$OMP CRITICAL
      T = T + 2
C$OMP END CRITICAL
C$OMP END PARALLEL SECTIONS
      WRITE (*, '(A,I0,A,I0)') 'S=', S, ' T=', T
      STOP 3
      END
