/* MPI records (PP_TRACE_MPI_*, written by the MPI layer through the engine)
 * as OTF2's MPI events, in a rank of a job.  The records already carry what
 * the events want: the peer's rank and the tag, the MPI layer's number of
 * the communicator (PP_TRACE_MPI_COMM_BASE + it is the rank's OTF2
 * communicator, mapped to the job's by the rank's mapping table), the
 * bytes, the request's id; a collective's operation is OTF2's own number. */
#include "trace/pp_trace_otf2.h"

#include "trace/pp_trace_rankdefs.h"

_Static_assert(OTF2_COLLECTIVE_OP_BARRIER == 0 && OTF2_COLLECTIVE_OP_BCAST == 1 &&
                   OTF2_COLLECTIVE_OP_ALLREDUCE == 11 &&
                   OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK == 16,
               "the MPI layer's table numbers the collectives as OTF2 does (pp_mpi_gen.py)");

static OTF2_CommRef pp_mpi_comm(uint64_t index)
{
    return index < UINT32_MAX - PP_TRACE_MPI_COMM_BASE ? PP_TRACE_MPI_COMM_BASE + (uint32_t)index
                                                        : OTF2_UNDEFINED_COMM;
}

void pp_trace_otf2_mpi_record(pp_conv_loc *l, const uint64_t *rec)
{
    pp_trace_conv *c = pp_conv_of(l);
    if (!pp_conv_event_room(l, c->size[PP_EV_MPI]))
        return;
    OTF2_EvtWriter *w = pp_conv_writer(l);
    uint64_t t = pp_conv_time(l);
    uint32_t rank = PP_TRACE_MPI_RANK(rec[1]), tag = PP_TRACE_MPI_TAG(rec[1]);
    OTF2_ErrorCode e = OTF2_SUCCESS;
    switch ((unsigned)(rec[0] & 0xff)) {
    case PP_TRACE_MPI_SEND:
        e = OTF2_EvtWriter_MpiSend(w, NULL, t, rank, pp_mpi_comm(rec[2]), tag, rec[3]);
        break;
    case PP_TRACE_MPI_RECV:
        e = OTF2_EvtWriter_MpiRecv(w, NULL, t, rank, pp_mpi_comm(rec[2]), tag, rec[3]);
        break;
    case PP_TRACE_MPI_ISEND:
        e = OTF2_EvtWriter_MpiIsend(w, NULL, t, rank, pp_mpi_comm(rec[2]), tag, rec[3], rec[4]);
        break;
    case PP_TRACE_MPI_IRECV:
        e = OTF2_EvtWriter_MpiIrecv(w, NULL, t, rank, pp_mpi_comm(rec[2]), tag, rec[3], rec[4]);
        break;
    case PP_TRACE_MPI_ISEND_COMPLETE: e = OTF2_EvtWriter_MpiIsendComplete(w, NULL, t, rec[1]); break;
    case PP_TRACE_MPI_IRECV_REQUEST: e = OTF2_EvtWriter_MpiIrecvRequest(w, NULL, t, rec[1]); break;
    case PP_TRACE_MPI_REQUEST_TEST: e = OTF2_EvtWriter_MpiRequestTest(w, NULL, t, rec[1]); break;
    case PP_TRACE_MPI_REQUEST_CANCELLED:
        e = OTF2_EvtWriter_MpiRequestCancelled(w, NULL, t, rec[1]);
        break;
    case PP_TRACE_MPI_COLL_BEGIN: e = OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t); break;
    case PP_TRACE_MPI_COLL_END:
        /* the record's tag half is the operation, its rank half the root */
        e = OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, t, (OTF2_CollectiveOp)tag,
                                            pp_mpi_comm(rec[2]), rank, rec[3], rec[4]);
        break;
    default: return;
    }
    pp_conv_event_count(l, e);
}
