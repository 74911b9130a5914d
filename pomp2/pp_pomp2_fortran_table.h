/* Every POMP2 call that OPARI2 writes into Fortran code, one row each:
 *
 *   SHAPE(name, NAME, entry)
 *
 * defines the Fortran entry point pomp2_<name> (link name from FC_FUNC_;
 * NAME is the upper-case spelling some compilers use), which forwards to the
 * C entry point `entry`.  The SHAPE names the Fortran argument list (every
 * argument by reference; "ctc" is the region string, a CHARACTER with a
 * hidden length); pp_pomp2_fortran.c defines one macro per shape:
 *
 *   PP_POMP2_F_CALL         ()
 *   PP_POMP2_F_QUERY        () returning an INTEGER
 *   PP_POMP2_F_ASSIGN       (handle, ctc), only assigns a handle still 0
 *   PP_POMP2_F_REGION       (handle)
 *   PP_POMP2_F_REGION_CTC   (handle, ctc)
 *   PP_POMP2_F_TASK_IN      (handle, task)            task read
 *   PP_POMP2_F_TASK_OUT     (handle, old_task)        old_task written
 *   PP_POMP2_F_TASK_OUT_CTC (handle, old_task, ctc)
 *   PP_POMP2_F_TASK_CREATE  (handle, new_task, old_task, if, ctc)
 *   PP_POMP2_F_FORK         (handle, if, num_threads, old_task, ctc), and
 *                           copies the fork context into /pomp_tpd/
 *   PP_POMP2_F_TEAM_BEGIN   (handle), and takes the context from /pomp_tpd/
 *
 * plus the lock calls, rows of pp_pomp2_lock_table.h.  test_e2e_symbols.sh
 * fails when OPARI2 emits a call that has no row here.
 *
 * The calls of pompprof.h a Fortran program makes itself have rows of their
 * own shapes, whose entry point is pompprof_<name> (same mangling):
 *
 *   PP_POMPPROF_F_PARAM_INT64   (name, value)   CHARACTER, INTEGER(KIND=8)
 *   PP_POMPPROF_F_PARAM_STRING  (name, value)   CHARACTER, CHARACTER
 *
 * No include guard: the includer defines the macros. */

/* lifecycle, handles, user regions */
PP_POMP2_F_CALL(init, INIT, POMP2_Init)
PP_POMP2_F_CALL(finalize, FINALIZE, POMP2_Finalize)
PP_POMP2_F_CALL(on, ON, POMP2_On)
PP_POMP2_F_CALL(off, OFF, POMP2_Off)
PP_POMP2_F_QUERY(lib_get_max_threads, LIB_GET_MAX_THREADS, POMP2_Lib_get_max_threads)
PP_POMP2_F_ASSIGN(assign_handle, ASSIGN_HANDLE, POMP2_Assign_handle)
PP_POMP2_F_ASSIGN(user_assign_handle, USER_ASSIGN_HANDLE, POMP2_USER_Assign_handle)
PP_POMP2_F_REGION_CTC(begin, BEGIN, POMP2_Begin)
PP_POMP2_F_REGION(end, END, POMP2_End)

/* parallel regions and barriers */
PP_POMP2_F_FORK(parallel_fork, PARALLEL_FORK, POMP2_Parallel_fork)
PP_POMP2_F_TEAM_BEGIN(parallel_begin, PARALLEL_BEGIN, POMP2_Parallel_begin)
PP_POMP2_F_REGION(parallel_end, PARALLEL_END, POMP2_Parallel_end)
PP_POMP2_F_TASK_IN(parallel_join, PARALLEL_JOIN, POMP2_Parallel_join)
PP_POMP2_F_TASK_OUT_CTC(barrier_enter, BARRIER_ENTER, POMP2_Barrier_enter)
PP_POMP2_F_TASK_IN(barrier_exit, BARRIER_EXIT, POMP2_Barrier_exit)
PP_POMP2_F_TASK_OUT(implicit_barrier_enter, IMPLICIT_BARRIER_ENTER, POMP2_Implicit_barrier_enter)
PP_POMP2_F_TASK_IN(implicit_barrier_exit, IMPLICIT_BARRIER_EXIT, POMP2_Implicit_barrier_exit)

/* worksharing and synchronization: Fortran "do" is C "for" (the region
 * string tells the profile it was do).  OPARI2 calls sections_enter without
 * the string for "parallel sections" (the pompprof wrapper adds it back,
 * gfortran rejects mixed argument lists); without it the handle was assigned
 * by the fork just before, so the string is not read then. */
PP_POMP2_F_REGION_CTC(do_enter, DO_ENTER, POMP2_For_enter)
PP_POMP2_F_REGION(do_exit, DO_EXIT, POMP2_For_exit)
PP_POMP2_F_REGION_CTC(sections_enter, SECTIONS_ENTER, POMP2_Sections_enter)
PP_POMP2_F_REGION(sections_exit, SECTIONS_EXIT, POMP2_Sections_exit)
PP_POMP2_F_REGION_CTC(section_begin, SECTION_BEGIN, POMP2_Section_begin)
PP_POMP2_F_REGION(section_end, SECTION_END, POMP2_Section_end)
PP_POMP2_F_REGION_CTC(workshare_enter, WORKSHARE_ENTER, POMP2_Workshare_enter)
PP_POMP2_F_REGION(workshare_exit, WORKSHARE_EXIT, POMP2_Workshare_exit)
PP_POMP2_F_REGION_CTC(single_enter, SINGLE_ENTER, POMP2_Single_enter)
PP_POMP2_F_REGION(single_exit, SINGLE_EXIT, POMP2_Single_exit)
PP_POMP2_F_REGION(single_begin, SINGLE_BEGIN, POMP2_Single_begin)
PP_POMP2_F_REGION(single_end, SINGLE_END, POMP2_Single_end)
PP_POMP2_F_REGION_CTC(master_begin, MASTER_BEGIN, POMP2_Master_begin)
PP_POMP2_F_REGION(master_end, MASTER_END, POMP2_Master_end)
PP_POMP2_F_REGION_CTC(critical_enter, CRITICAL_ENTER, POMP2_Critical_enter)
PP_POMP2_F_REGION(critical_exit, CRITICAL_EXIT, POMP2_Critical_exit)
PP_POMP2_F_REGION(critical_begin, CRITICAL_BEGIN, POMP2_Critical_begin)
PP_POMP2_F_REGION(critical_end, CRITICAL_END, POMP2_Critical_end)
PP_POMP2_F_REGION_CTC(ordered_enter, ORDERED_ENTER, POMP2_Ordered_enter)
PP_POMP2_F_REGION(ordered_exit, ORDERED_EXIT, POMP2_Ordered_exit)
PP_POMP2_F_REGION(ordered_begin, ORDERED_BEGIN, POMP2_Ordered_begin)
PP_POMP2_F_REGION(ordered_end, ORDERED_END, POMP2_Ordered_end)
PP_POMP2_F_REGION_CTC(atomic_enter, ATOMIC_ENTER, POMP2_Atomic_enter)
PP_POMP2_F_REGION(atomic_exit, ATOMIC_EXIT, POMP2_Atomic_exit)
PP_POMP2_F_REGION_CTC(flush_enter, FLUSH_ENTER, POMP2_Flush_enter)
PP_POMP2_F_REGION(flush_exit, FLUSH_EXIT, POMP2_Flush_exit)

/* tasks */
PP_POMP2_F_TASK_CREATE(task_create_begin, TASK_CREATE_BEGIN, POMP2_Task_create_begin)
PP_POMP2_F_TASK_IN(task_create_end, TASK_CREATE_END, POMP2_Task_create_end)
PP_POMP2_F_TASK_IN(task_begin, TASK_BEGIN, POMP2_Task_begin)
PP_POMP2_F_REGION(task_end, TASK_END, POMP2_Task_end)
PP_POMP2_F_TASK_CREATE(untied_task_create_begin, UNTIED_TASK_CREATE_BEGIN,
                       POMP2_Untied_task_create_begin)
PP_POMP2_F_TASK_IN(untied_task_create_end, UNTIED_TASK_CREATE_END, POMP2_Untied_task_create_end)
PP_POMP2_F_TASK_IN(untied_task_begin, UNTIED_TASK_BEGIN, POMP2_Untied_task_begin)
PP_POMP2_F_REGION(untied_task_end, UNTIED_TASK_END, POMP2_Untied_task_end)
PP_POMP2_F_TASK_OUT_CTC(taskwait_begin, TASKWAIT_BEGIN, POMP2_Taskwait_begin)
PP_POMP2_F_TASK_IN(taskwait_end, TASKWAIT_END, POMP2_Taskwait_end)

/* pompprof.h: parameters (pp_pomp2_param.c) */
PP_POMPPROF_F_PARAM_INT64(parameter_int64, PARAMETER_INT64, pompprof_parameter_int64)
PP_POMPPROF_F_PARAM_STRING(parameter_string, PARAMETER_STRING, pompprof_parameter_string)

/* locks: pomp2_<name> calls libgomp's Fortran omp_<name> */
#include "pomp2/pp_pomp2_lock_table.h"
