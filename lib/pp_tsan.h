/* Happens-before marks for ThreadSanitizer where the synchronisation is the
 * OpenMP runtime's, which TSan cannot see (libomp is not instrumented):
 * make check-tsan (doc/engine.md, "ThreadSanitizer").
 *
 * An event source that hands data from one thread to another through the
 * runtime (the OMPT layer: a task's data word written at its creation on one
 * thread, read where it begins; a suspended untied task's state, read where
 * it resumes) marks the hand-over: PP_TSAN_RELEASE(addr) after its last
 * write on the first thread, PP_TSAN_ACQUIRE(addr) before its first read on
 * the second, with the same address.  Archer (LLVM's OMPT tool for TSan)
 * marks the runtime's synchronisation for the program's own accesses, but
 * it runs before or after pompprof's callback at each event, never around
 * both halves of it.  In every other build the marks are nothing. */
#ifndef PP_TSAN_H
#define PP_TSAN_H

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PP_TSAN 1
#endif
#endif
#if !defined(PP_TSAN) && defined(__SANITIZE_THREAD__)
#define PP_TSAN 1
#endif

#ifdef PP_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define PP_TSAN_ACQUIRE(addr) __tsan_acquire((void *)(addr))
#define PP_TSAN_RELEASE(addr) __tsan_release((void *)(addr))
#else
#define PP_TSAN 0
#define PP_TSAN_ACQUIRE(addr) ((void)0)
#define PP_TSAN_RELEASE(addr) ((void)0)
#endif

#endif
