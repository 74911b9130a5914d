/* The two binary members of a metric: <id>.data (marker + one row per cnode
 * in the metric's row order, one 8-byte cell per location) and <id>.index
 * (the 18-byte DENSE index, so every cnode has a row and no position list
 * is needed).  Cells are written in host byte order; the index's endianness
 * marker is the value 1 in that same order, which is what CubeLib compares
 * against (doc/cube4-layout.md) - so the file is right on any host. */
#include <stdio.h>
#include <string.h>

#include "cube-writer/pp_cube_internal.h"

#define PP_CUBE_DATA_MARKER "CUBEX.DATA"
#define PP_CUBE_INDEX_MARKER "CUBEX.INDEX"
#define PP_CUBE_INDEX_DENSE 3

uint64_t pp_cube_data_size(const pp_cube *cube)
{
    return (uint64_t)strlen(PP_CUBE_DATA_MARKER) +
           (uint64_t)cube->num_cnodes * (uint64_t)cube->num_threads * PP_CUBE_VALUE_SIZE;
}

static void pp_cube_data_write_rows(const pp_cube_metric *m, const int *order, int num_rows,
                                    int num_cols, pp_cube_sink *sink)
{
    size_t stored_cols = m->cols < (size_t)num_cols ? m->cols : (size_t)num_cols;
    for (int pos = 0; pos < num_rows && !sink->err; pos++) {
        size_t cnode = (size_t)order[pos];
        size_t copied = 0;
        if (m->values && cnode < m->rows) {
            copied = stored_cols;
            pp_cube_sink_write(sink, m->values + cnode * m->cols, copied * PP_CUBE_VALUE_SIZE);
        }
        /* locations (or cnodes) defined after the last set: unset */
        for (; copied < (size_t)num_cols && m->empty; copied++)
            pp_cube_sink_write(sink, &m->empty, sizeof m->empty);
        if (copied < (size_t)num_cols)
            pp_cube_sink_zeros(sink, ((size_t)num_cols - copied) * PP_CUBE_VALUE_SIZE);
    }
}

static void pp_cube_index_build(unsigned char index[18])
{
    uint32_t endianness = 1;
    uint16_t version = 0;
    memcpy(index, PP_CUBE_INDEX_MARKER, 11);
    memcpy(index + 11, &endianness, sizeof endianness);
    memcpy(index + 15, &version, sizeof version);
    index[17] = PP_CUBE_INDEX_DENSE;
}

void pp_cube_data_write_members(const pp_cube *cube, int metric, const int *order,
                                pp_cube_sink *sink)
{
    char name[32];
    uint64_t size = pp_cube_data_size(cube);
    snprintf(name, sizeof name, "%d.data", metric);
    pp_cube_tar_member_begin(sink, name, size);
    pp_cube_sink_write(sink, PP_CUBE_DATA_MARKER, strlen(PP_CUBE_DATA_MARKER));
    pp_cube_data_write_rows(&cube->metrics[metric], order, cube->num_cnodes, cube->num_threads,
                            sink);
    pp_cube_tar_member_end(sink, size);

    unsigned char index[18];
    pp_cube_index_build(index);
    snprintf(name, sizeof name, "%d.index", metric);
    pp_cube_tar_member_begin(sink, name, sizeof index);
    pp_cube_sink_write(sink, index, sizeof index);
    pp_cube_tar_member_end(sink, sizeof index);
}
