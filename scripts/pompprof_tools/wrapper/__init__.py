"""The `pompprof` compiler wrapper (doc/wrapper.md).

main       the command: reads the compiler command line, compiles, links
cmdline    what a compiler command line says (sources, outputs, languages, flags)
noopenmp   sources with OpenMP directives on a line without -fopenmp: one note
compile    the four passes per source: plain messages, preprocess, instrument, compile
rewrite    construct rewrites before OPARI2 (combined constructs, hidden constructs)
directive  reading OpenMP directives and their clauses
ctext      C text: line markers, tokens, statement extents
fortran    the Fortran path: the text OPARI2 gets (fortran_text: reading Fortran
           source; fortran_output: OPARI2's output made compilable)
instrument runs OPARI2 and finishes its output; prelude: what replaces OPARI2's include
adjacent   adjacent task events of OPARI2's output in one call
c_depend   the list items of C/C++ tasks' depend clauses, recorded at creation
fortran_depend  the same for Fortran tasks (depend_items: what both share);
           fortran_depend_marks: Fortran tasks with depend clauses marked in
           OPARI2's include file (C/C++ get the mark from directive's facts)
tally      what each pass over OPARI2's output matched against what it expected
functions  -finstrument-functions and filters (--functions)
link       the link step: region init unit, libpompprof
mpi        the link step of MPI programs
run        running commands, notes on stderr
switches   the on/off settings in the environment
"""
