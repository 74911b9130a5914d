! A hybrid Fortran program with the mpi module (test/mpi/test_mpi_fortran.py):
! tasks in a parallel region, a ring of MPI_Sendrecv (rank r sends
! 100 * (r + 1) doubles), a message received with MPI_STATUS_IGNORE,
! collectives with MPI_IN_PLACE, a communicator named and its name read
! back (CHARACTER arguments), MPI_Wtime (a function).  Rank 0 prints.
program fhybrid
  use mpi
  implicit none
  integer :: ierr, rank, nranks, provided, next, prev, i, done, dup, namelen
  integer :: status(MPI_STATUS_SIZE), ibuf(5), gath(2, 16)
  double precision :: sbuf(1600), rbuf(1600), x, t
  character(len=MPI_MAX_OBJECT_NAME) :: cname

  call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  t = MPI_Wtime()
  done = 0
!$omp parallel
!$omp single
  do i = 1, 4
!$omp task shared(done)
!$omp atomic
    done = done + 1
!$omp end task
  end do
!$omp end single
!$omp end parallel

  next = mod(rank + 1, nranks)
  prev = mod(rank + nranks - 1, nranks)
  sbuf = rank
  call MPI_Sendrecv(sbuf, 100 * (rank + 1), MPI_DOUBLE_PRECISION, next, 1, &
                    rbuf, 1600, MPI_DOUBLE_PRECISION, prev, 1, MPI_COMM_WORLD, status, ierr)
  ibuf = rank
  if (rank == 0 .and. nranks > 1) then
    call MPI_Send(ibuf, 5, MPI_INTEGER, 1, 2, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
    call MPI_Recv(ibuf, 5, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if
  x = rank + 1
  call MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  gath(:, rank + 1) = rank
  call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gath, 2, MPI_INTEGER, &
                     MPI_COMM_WORLD, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_set_name(dup, 'fortran dup', ierr)
  call MPI_Comm_get_name(dup, cname, namelen, ierr)
  call MPI_Comm_free(dup, ierr)
  if (rank == 0) then
    print '(a,i0,a,f6.1,a,i0,a,a)', 'tasks ', done, ' sum ', x, ' gathered ', sum(gath(:, 1:nranks)), &
          ' name ', cname(1:namelen)
    if (MPI_Wtime() < t) print *, 'time went backwards'
  end if
  call MPI_Finalize(ierr)
end program fhybrid
