! Reads each line of standard input as the readers of WAMIT .1 files do (OpenFAST HydroDyn,
! modules/hydrodyn/src/WAMIT.f90: READ (Line,*) TmpPer, I, J, TmpData1, a list-directed READ)
! and prints what was read (17 significant digits: every double exactly), or "error".
program fortran_read
  implicit none
  character(len=1024) :: line
  real(8) :: per, a
  integer :: i, j, ios
  do
    read (*, '(A)', iostat=ios) line
    if (ios /= 0) exit
    read (line, *, iostat=ios) per, i, j, a
    if (ios /= 0) then
      write (*, '(A)') 'error'
    else
      write (*, '(ES26.17E3, 1X, I0, 1X, I0, 1X, ES26.17E3)') per, i, j, a
    end if
  end do
end program fortran_read
