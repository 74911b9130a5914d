/* The OpenMP lock calls that OPARI2 renames to POMP2 entry points, one row
 * each.  Every lock fact comes from here: the region ids (enum in
 * pp_pomp2_internal.h), the region names "omp_<name>" and the C wrappers
 * POMP2_<Name> (pp_pomp2_lock.c), and the Fortran wrappers pomp2_<name>, which
 * call libgomp's Fortran omp_<name> (pp_pomp2_fortran_table.h).
 *
 *   PP_POMP2_LOCK_CALL(name, NAME, Name, lock_type)  the call returns nothing
 *   PP_POMP2_LOCK_TEST(name, NAME, Name, lock_type)  the call returns an int
 *   PP_POMP2_LOCK_HINT(name, NAME, Name, lock_type, plain, PLAIN)  the call returns
 *       nothing and takes a second argument, the hint (omp_sync_hint_t in C,
 *       an INTEGER(omp_sync_hint_kind) in Fortran); plain: the call without
 *       the hint (PLAIN in upper case), for a runtime that lacks the hinted one (libgomp 12 has
 *       none; a hint never changes what a lock does)
 *
 * name: the omp_ call without its prefix; NAME: the same in upper case (for
 * compilers that mangle Fortran names to upper case); Name: as in
 * POMP2_<Name>; lock_type: the C lock type.  No include guard: the includer
 * defines the three macros, includes this file, and undefines them again. */
PP_POMP2_LOCK_CALL(init_lock, INIT_LOCK, Init_lock, omp_lock_t)
PP_POMP2_LOCK_CALL(destroy_lock, DESTROY_LOCK, Destroy_lock, omp_lock_t)
PP_POMP2_LOCK_CALL(set_lock, SET_LOCK, Set_lock, omp_lock_t)
PP_POMP2_LOCK_CALL(unset_lock, UNSET_LOCK, Unset_lock, omp_lock_t)
PP_POMP2_LOCK_TEST(test_lock, TEST_LOCK, Test_lock, omp_lock_t)
PP_POMP2_LOCK_HINT(init_lock_with_hint, INIT_LOCK_WITH_HINT, Init_lock_with_hint, omp_lock_t,
                   init_lock, INIT_LOCK)
PP_POMP2_LOCK_CALL(init_nest_lock, INIT_NEST_LOCK, Init_nest_lock, omp_nest_lock_t)
PP_POMP2_LOCK_CALL(destroy_nest_lock, DESTROY_NEST_LOCK, Destroy_nest_lock, omp_nest_lock_t)
PP_POMP2_LOCK_CALL(set_nest_lock, SET_NEST_LOCK, Set_nest_lock, omp_nest_lock_t)
PP_POMP2_LOCK_CALL(unset_nest_lock, UNSET_NEST_LOCK, Unset_nest_lock, omp_nest_lock_t)
PP_POMP2_LOCK_TEST(test_nest_lock, TEST_NEST_LOCK, Test_nest_lock, omp_nest_lock_t)
PP_POMP2_LOCK_HINT(init_nest_lock_with_hint, INIT_NEST_LOCK_WITH_HINT, Init_nest_lock_with_hint,
                   omp_nest_lock_t, init_nest_lock, INIT_NEST_LOCK)
