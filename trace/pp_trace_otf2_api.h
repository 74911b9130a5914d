/* The OTF2 functions trace/ calls, loaded with dlopen when a trace starts.
 *
 * libpompprof does not link libotf2: every profiled program would pay the
 * loader's relocation of it at start, and only POMPPROF_TRACE=1 runs use it
 * (doc/engine.md, "fast path").  pp_trace_otf2_load resolves the functions
 * below once into one table; from this header on, OTF2's names at the call
 * sites are the table's pointers.  Include it after <otf2/otf2.h> (through
 * pp_trace_otf2.h) and only where OTF2 is called. */
#ifndef PP_TRACE_OTF2_API_H
#define PP_TRACE_OTF2_API_H

#include <stddef.h>

#include <otf2/OTF2_EventSizeEstimator.h>
#include <otf2/otf2.h>

/* Every OTF2 function trace/ calls, once. */
#define PP_TRACE_OTF2_FUNCS(X)                                                                     \
    X(OTF2_Archive_Close) X(OTF2_Archive_CloseDefFiles) X(OTF2_Archive_CloseDefWriter)             \
    X(OTF2_Archive_CloseEvtFiles) X(OTF2_Archive_CloseEvtWriter) X(OTF2_Archive_GetDefWriter)      \
    X(OTF2_Archive_GetEvtWriter) X(OTF2_Archive_GetGlobalDefWriter) X(OTF2_Archive_Open)           \
    X(OTF2_Archive_OpenDefFiles) X(OTF2_Archive_OpenEvtFiles) X(OTF2_Archive_SetCreator)           \
    X(OTF2_Archive_SetFlushCallbacks) X(OTF2_Archive_SetProperty)                                  \
    X(OTF2_Archive_SetCollectiveCallbacks) X(OTF2_DefWriter_WriteClockOffset)                      \
    X(OTF2_DefWriter_WriteMappingTable) X(OTF2_IdMap_AddIdPair) X(OTF2_IdMap_Create)               \
    X(OTF2_IdMap_CreateFromUint32Array) X(OTF2_IdMap_Free) X(OTF2_EvtWriter_MpiSend)               \
    X(OTF2_EvtWriter_MpiRecv) X(OTF2_EvtWriter_MpiIsend) X(OTF2_EvtWriter_MpiIrecv)                \
    X(OTF2_EvtWriter_MpiIsendComplete) X(OTF2_EvtWriter_MpiIrecvRequest)                           \
    X(OTF2_EvtWriter_MpiRequestTest) X(OTF2_EvtWriter_MpiRequestCancelled)                         \
    X(OTF2_EvtWriter_MpiCollectiveBegin) X(OTF2_EvtWriter_MpiCollectiveEnd)                        \
    X(OTF2_Archive_SetSerialCollectiveCallbacks) X(OTF2_AttributeList_AddAttribute)                \
    X(OTF2_AttributeList_Delete) X(OTF2_AttributeList_New) X(OTF2_AttributeList_RemoveAttribute)   \
    X(OTF2_Error_RegisterCallback) X(OTF2_EventSizeEstimator_Delete)                               \
    X(OTF2_EventSizeEstimator_GetSizeOfEnterEvent) X(OTF2_EventSizeEstimator_GetSizeOfLeaveEvent)  \
    X(OTF2_EventSizeEstimator_GetSizeOfMetricEvent)                                                \
    X(OTF2_EventSizeEstimator_GetSizeOfParameterIntEvent)                                          \
    X(OTF2_EventSizeEstimator_GetSizeOfParameterStringEvent)                                       \
    X(OTF2_EventSizeEstimator_GetSizeOfThreadAcquireLockEvent)                                     \
    X(OTF2_EventSizeEstimator_GetSizeOfThreadForkEvent)                                            \
    X(OTF2_EventSizeEstimator_GetSizeOfThreadJoinEvent)                                            \
    X(OTF2_EventSizeEstimator_GetSizeOfThreadReleaseLockEvent)                                     \
    X(OTF2_EventSizeEstimator_GetSizeOfThreadTaskCompleteEvent)                                    \
    X(OTF2_EventSizeEstimator_GetSizeOfThreadTaskCreateEvent)                                      \
    X(OTF2_EventSizeEstimator_GetSizeOfThreadTaskSwitchEvent)                                      \
    X(OTF2_EventSizeEstimator_GetSizeOfThreadTeamBeginEvent)                                       \
    X(OTF2_EventSizeEstimator_GetSizeOfThreadTeamEndEvent)                                         \
    X(OTF2_EventSizeEstimator_GetSizeOfTimestamp) X(OTF2_EventSizeEstimator_New)                   \
    X(OTF2_EventSizeEstimator_SetNumberOfCommDefinitions)                                          \
    X(OTF2_EventSizeEstimator_SetNumberOfLocationDefinitions)                                      \
    X(OTF2_EventSizeEstimator_SetNumberOfMetricDefinitions)                                        \
    X(OTF2_EventSizeEstimator_SetNumberOfRegionDefinitions) X(OTF2_EvtWriter_Enter)                \
    X(OTF2_EvtWriter_Leave) X(OTF2_EvtWriter_Metric) X(OTF2_EvtWriter_ParameterInt)                \
    X(OTF2_EvtWriter_ParameterString) X(OTF2_EvtWriter_ThreadAcquireLock)                          \
    X(OTF2_EvtWriter_ThreadFork) X(OTF2_EvtWriter_ThreadJoin) X(OTF2_EvtWriter_ThreadReleaseLock)  \
    X(OTF2_EvtWriter_ThreadTaskComplete) X(OTF2_EvtWriter_ThreadTaskCreate)                        \
    X(OTF2_EvtWriter_ThreadTaskSwitch) X(OTF2_EvtWriter_ThreadTeamBegin)                           \
    X(OTF2_EvtWriter_ThreadTeamEnd) X(OTF2_GlobalDefWriter_WriteAttribute)                         \
    X(OTF2_GlobalDefWriter_WriteClockProperties) X(OTF2_GlobalDefWriter_WriteComm)                 \
    X(OTF2_GlobalDefWriter_WriteGroup) X(OTF2_GlobalDefWriter_WriteLocation)                       \
    X(OTF2_GlobalDefWriter_WriteLocationGroup) X(OTF2_GlobalDefWriter_WriteMetricClass)            \
    X(OTF2_GlobalDefWriter_WriteMetricMember) X(OTF2_GlobalDefWriter_WriteParameter)               \
    X(OTF2_GlobalDefWriter_WriteRegion) X(OTF2_GlobalDefWriter_WriteString)                        \
    X(OTF2_GlobalDefWriter_WriteSystemTreeNode)

#define PP_TRACE_OTF2_POINTER(f) __typeof__(&f) f;
typedef struct pp_trace_otf2_api {
    PP_TRACE_OTF2_FUNCS(PP_TRACE_OTF2_POINTER)
} pp_trace_otf2_api;
#undef PP_TRACE_OTF2_POINTER

/* The functions, valid after pp_trace_otf2_load returned 0 (hidden: a call
 * loads its pointer PC-relative, not the table's address from the GOT first). */
extern __attribute__((visibility("hidden"))) pp_trace_otf2_api pp_trace_otf2_fn;

/* Load the OTF2 library (PP_OTF2_SONAME) and resolve every function, once
 * per process: 0, or -1 with the reason in why (the library cannot be
 * loaded, or lacks a function); then nothing of it is used. */
int pp_trace_otf2_load(char *why, size_t len);

/* from here on OTF2's names are the loaded functions (not in the loader,
 * which names the table's members) */
#ifndef PP_TRACE_OTF2_LOADER
#define PP_TRACE_OTF2_CALL(f) (pp_trace_otf2_fn.f)
#define OTF2_Archive_SetCollectiveCallbacks PP_TRACE_OTF2_CALL(OTF2_Archive_SetCollectiveCallbacks)
#define OTF2_DefWriter_WriteClockOffset PP_TRACE_OTF2_CALL(OTF2_DefWriter_WriteClockOffset)
#define OTF2_DefWriter_WriteMappingTable PP_TRACE_OTF2_CALL(OTF2_DefWriter_WriteMappingTable)
#define OTF2_IdMap_AddIdPair PP_TRACE_OTF2_CALL(OTF2_IdMap_AddIdPair)
#define OTF2_IdMap_Create PP_TRACE_OTF2_CALL(OTF2_IdMap_Create)
#define OTF2_IdMap_CreateFromUint32Array PP_TRACE_OTF2_CALL(OTF2_IdMap_CreateFromUint32Array)
#define OTF2_IdMap_Free PP_TRACE_OTF2_CALL(OTF2_IdMap_Free)
#define OTF2_EvtWriter_MpiSend PP_TRACE_OTF2_CALL(OTF2_EvtWriter_MpiSend)
#define OTF2_EvtWriter_MpiRecv PP_TRACE_OTF2_CALL(OTF2_EvtWriter_MpiRecv)
#define OTF2_EvtWriter_MpiIsend PP_TRACE_OTF2_CALL(OTF2_EvtWriter_MpiIsend)
#define OTF2_EvtWriter_MpiIrecv PP_TRACE_OTF2_CALL(OTF2_EvtWriter_MpiIrecv)
#define OTF2_EvtWriter_MpiIsendComplete PP_TRACE_OTF2_CALL(OTF2_EvtWriter_MpiIsendComplete)
#define OTF2_EvtWriter_MpiIrecvRequest PP_TRACE_OTF2_CALL(OTF2_EvtWriter_MpiIrecvRequest)
#define OTF2_EvtWriter_MpiRequestTest PP_TRACE_OTF2_CALL(OTF2_EvtWriter_MpiRequestTest)
#define OTF2_EvtWriter_MpiRequestCancelled PP_TRACE_OTF2_CALL(OTF2_EvtWriter_MpiRequestCancelled)
#define OTF2_EvtWriter_MpiCollectiveBegin PP_TRACE_OTF2_CALL(OTF2_EvtWriter_MpiCollectiveBegin)
#define OTF2_EvtWriter_MpiCollectiveEnd PP_TRACE_OTF2_CALL(OTF2_EvtWriter_MpiCollectiveEnd)
#define OTF2_Archive_Close PP_TRACE_OTF2_CALL(OTF2_Archive_Close)
#define OTF2_Archive_CloseDefFiles PP_TRACE_OTF2_CALL(OTF2_Archive_CloseDefFiles)
#define OTF2_Archive_CloseDefWriter PP_TRACE_OTF2_CALL(OTF2_Archive_CloseDefWriter)
#define OTF2_Archive_CloseEvtFiles PP_TRACE_OTF2_CALL(OTF2_Archive_CloseEvtFiles)
#define OTF2_Archive_CloseEvtWriter PP_TRACE_OTF2_CALL(OTF2_Archive_CloseEvtWriter)
#define OTF2_Archive_GetDefWriter PP_TRACE_OTF2_CALL(OTF2_Archive_GetDefWriter)
#define OTF2_Archive_GetEvtWriter PP_TRACE_OTF2_CALL(OTF2_Archive_GetEvtWriter)
#define OTF2_Archive_GetGlobalDefWriter PP_TRACE_OTF2_CALL(OTF2_Archive_GetGlobalDefWriter)
#define OTF2_Archive_Open PP_TRACE_OTF2_CALL(OTF2_Archive_Open)
#define OTF2_Archive_OpenDefFiles PP_TRACE_OTF2_CALL(OTF2_Archive_OpenDefFiles)
#define OTF2_Archive_OpenEvtFiles PP_TRACE_OTF2_CALL(OTF2_Archive_OpenEvtFiles)
#define OTF2_Archive_SetCreator PP_TRACE_OTF2_CALL(OTF2_Archive_SetCreator)
#define OTF2_Archive_SetFlushCallbacks PP_TRACE_OTF2_CALL(OTF2_Archive_SetFlushCallbacks)
#define OTF2_Archive_SetProperty PP_TRACE_OTF2_CALL(OTF2_Archive_SetProperty)
#define OTF2_Archive_SetSerialCollectiveCallbacks                                                  \
    PP_TRACE_OTF2_CALL(OTF2_Archive_SetSerialCollectiveCallbacks)
#define OTF2_AttributeList_AddAttribute PP_TRACE_OTF2_CALL(OTF2_AttributeList_AddAttribute)
#define OTF2_AttributeList_Delete PP_TRACE_OTF2_CALL(OTF2_AttributeList_Delete)
#define OTF2_AttributeList_New PP_TRACE_OTF2_CALL(OTF2_AttributeList_New)
#define OTF2_AttributeList_RemoveAttribute PP_TRACE_OTF2_CALL(OTF2_AttributeList_RemoveAttribute)
#define OTF2_Error_RegisterCallback PP_TRACE_OTF2_CALL(OTF2_Error_RegisterCallback)
#define OTF2_EventSizeEstimator_Delete PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_Delete)
#define OTF2_EventSizeEstimator_GetSizeOfEnterEvent                                                \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_GetSizeOfEnterEvent)
#define OTF2_EventSizeEstimator_GetSizeOfLeaveEvent                                                \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_GetSizeOfLeaveEvent)
#define OTF2_EventSizeEstimator_GetSizeOfMetricEvent                                               \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_GetSizeOfMetricEvent)
#define OTF2_EventSizeEstimator_GetSizeOfParameterIntEvent                                         \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_GetSizeOfParameterIntEvent)
#define OTF2_EventSizeEstimator_GetSizeOfParameterStringEvent                                      \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_GetSizeOfParameterStringEvent)
#define OTF2_EventSizeEstimator_GetSizeOfThreadAcquireLockEvent                                    \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_GetSizeOfThreadAcquireLockEvent)
#define OTF2_EventSizeEstimator_GetSizeOfThreadForkEvent                                           \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_GetSizeOfThreadForkEvent)
#define OTF2_EventSizeEstimator_GetSizeOfThreadJoinEvent                                           \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_GetSizeOfThreadJoinEvent)
#define OTF2_EventSizeEstimator_GetSizeOfThreadReleaseLockEvent                                    \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_GetSizeOfThreadReleaseLockEvent)
#define OTF2_EventSizeEstimator_GetSizeOfThreadTaskCompleteEvent                                   \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_GetSizeOfThreadTaskCompleteEvent)
#define OTF2_EventSizeEstimator_GetSizeOfThreadTaskCreateEvent                                     \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_GetSizeOfThreadTaskCreateEvent)
#define OTF2_EventSizeEstimator_GetSizeOfThreadTaskSwitchEvent                                     \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_GetSizeOfThreadTaskSwitchEvent)
#define OTF2_EventSizeEstimator_GetSizeOfThreadTeamBeginEvent                                      \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_GetSizeOfThreadTeamBeginEvent)
#define OTF2_EventSizeEstimator_GetSizeOfThreadTeamEndEvent                                        \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_GetSizeOfThreadTeamEndEvent)
#define OTF2_EventSizeEstimator_GetSizeOfTimestamp                                                 \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_GetSizeOfTimestamp)
#define OTF2_EventSizeEstimator_New PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_New)
#define OTF2_EventSizeEstimator_SetNumberOfCommDefinitions                                         \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_SetNumberOfCommDefinitions)
#define OTF2_EventSizeEstimator_SetNumberOfLocationDefinitions                                     \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_SetNumberOfLocationDefinitions)
#define OTF2_EventSizeEstimator_SetNumberOfMetricDefinitions                                       \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_SetNumberOfMetricDefinitions)
#define OTF2_EventSizeEstimator_SetNumberOfRegionDefinitions                                       \
    PP_TRACE_OTF2_CALL(OTF2_EventSizeEstimator_SetNumberOfRegionDefinitions)
#define OTF2_EvtWriter_Enter PP_TRACE_OTF2_CALL(OTF2_EvtWriter_Enter)
#define OTF2_EvtWriter_Leave PP_TRACE_OTF2_CALL(OTF2_EvtWriter_Leave)
#define OTF2_EvtWriter_Metric PP_TRACE_OTF2_CALL(OTF2_EvtWriter_Metric)
#define OTF2_EvtWriter_ParameterInt PP_TRACE_OTF2_CALL(OTF2_EvtWriter_ParameterInt)
#define OTF2_EvtWriter_ParameterString PP_TRACE_OTF2_CALL(OTF2_EvtWriter_ParameterString)
#define OTF2_EvtWriter_ThreadAcquireLock PP_TRACE_OTF2_CALL(OTF2_EvtWriter_ThreadAcquireLock)
#define OTF2_EvtWriter_ThreadFork PP_TRACE_OTF2_CALL(OTF2_EvtWriter_ThreadFork)
#define OTF2_EvtWriter_ThreadJoin PP_TRACE_OTF2_CALL(OTF2_EvtWriter_ThreadJoin)
#define OTF2_EvtWriter_ThreadReleaseLock PP_TRACE_OTF2_CALL(OTF2_EvtWriter_ThreadReleaseLock)
#define OTF2_EvtWriter_ThreadTaskComplete PP_TRACE_OTF2_CALL(OTF2_EvtWriter_ThreadTaskComplete)
#define OTF2_EvtWriter_ThreadTaskCreate PP_TRACE_OTF2_CALL(OTF2_EvtWriter_ThreadTaskCreate)
#define OTF2_EvtWriter_ThreadTaskSwitch PP_TRACE_OTF2_CALL(OTF2_EvtWriter_ThreadTaskSwitch)
#define OTF2_EvtWriter_ThreadTeamBegin PP_TRACE_OTF2_CALL(OTF2_EvtWriter_ThreadTeamBegin)
#define OTF2_EvtWriter_ThreadTeamEnd PP_TRACE_OTF2_CALL(OTF2_EvtWriter_ThreadTeamEnd)
#define OTF2_GlobalDefWriter_WriteAttribute PP_TRACE_OTF2_CALL(OTF2_GlobalDefWriter_WriteAttribute)
#define OTF2_GlobalDefWriter_WriteClockProperties                                                  \
    PP_TRACE_OTF2_CALL(OTF2_GlobalDefWriter_WriteClockProperties)
#define OTF2_GlobalDefWriter_WriteComm PP_TRACE_OTF2_CALL(OTF2_GlobalDefWriter_WriteComm)
#define OTF2_GlobalDefWriter_WriteGroup PP_TRACE_OTF2_CALL(OTF2_GlobalDefWriter_WriteGroup)
#define OTF2_GlobalDefWriter_WriteLocation PP_TRACE_OTF2_CALL(OTF2_GlobalDefWriter_WriteLocation)
#define OTF2_GlobalDefWriter_WriteLocationGroup                                                    \
    PP_TRACE_OTF2_CALL(OTF2_GlobalDefWriter_WriteLocationGroup)
#define OTF2_GlobalDefWriter_WriteMetricClass                                                      \
    PP_TRACE_OTF2_CALL(OTF2_GlobalDefWriter_WriteMetricClass)
#define OTF2_GlobalDefWriter_WriteMetricMember                                                     \
    PP_TRACE_OTF2_CALL(OTF2_GlobalDefWriter_WriteMetricMember)
#define OTF2_GlobalDefWriter_WriteParameter PP_TRACE_OTF2_CALL(OTF2_GlobalDefWriter_WriteParameter)
#define OTF2_GlobalDefWriter_WriteRegion PP_TRACE_OTF2_CALL(OTF2_GlobalDefWriter_WriteRegion)
#define OTF2_GlobalDefWriter_WriteString PP_TRACE_OTF2_CALL(OTF2_GlobalDefWriter_WriteString)
#define OTF2_GlobalDefWriter_WriteSystemTreeNode                                                   \
    PP_TRACE_OTF2_CALL(OTF2_GlobalDefWriter_WriteSystemTreeNode)
#endif

#endif
