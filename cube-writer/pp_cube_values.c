/* Metric values: one dense cnodes x locations matrix of 8-byte cells per
 * metric, allocated on the first set and grown when cnodes or locations are
 * defined later.  Dense because the file is dense anyway (dense index) and a
 * row can then be copied to the file with one memcpy.  Cells nobody set hold
 * the metric's empty value (pp_cube.h). */
#include <stdlib.h>
#include <string.h>

#include "cube-writer/pp_cube_internal.h"

/* Makes cell (cnode, location) addressable.  Extents jump to at least the
 * currently defined counts, and double when definitions keep coming, so
 * interleaved define/set sequences stay amortised O(1). */
static void pp_cube_values_fill(uint64_t *cells, size_t n, uint64_t empty)
{
    if (!empty) {
        memset(cells, 0, n * sizeof *cells);
        return;
    }
    for (size_t i = 0; i < n; i++)
        cells[i] = empty;
}

static int pp_cube_values_reserve(pp_cube *cube, pp_cube_metric *m, size_t cnode, size_t location)
{
    if (m->values && cnode < m->rows && location < m->cols)
        return 0;
    size_t rows = m->rows, cols = m->cols;
    if (!m->values || cnode >= rows) {
        rows = rows * 2 > (size_t)cube->num_cnodes ? rows * 2 : (size_t)cube->num_cnodes;
        if (rows <= cnode)
            rows = cnode + 1;
    }
    if (!m->values || location >= cols) {
        cols = cols * 2 > (size_t)cube->num_threads ? cols * 2 : (size_t)cube->num_threads;
        if (cols <= location)
            cols = location + 1;
    }
    if (cols != 0 && rows > SIZE_MAX / sizeof(uint64_t) / cols)
        return -1;
    uint64_t *values;
    if (m->values && cols == m->cols) {
        /* Same row length: the old rows stay where they are. */
        values = realloc(m->values, rows * cols * sizeof *values);
        if (!values)
            return -1;
        pp_cube_values_fill(values + m->rows * cols, (rows - m->rows) * cols, m->empty);
    } else {
        values = calloc(rows * cols, sizeof *values);
        if (!values)
            return -1;
        pp_cube_values_fill(values, rows * cols, m->empty);
        for (size_t r = 0; m->values && r < m->rows; r++)
            memcpy(values + r * cols, m->values + r * m->cols, m->cols * sizeof *values);
        free(m->values);
    }
    m->values = values;
    m->rows = rows;
    m->cols = cols;
    return 0;
}

/* Checks ids and the setter's type; returns the cell or NULL (error set). */
static uint64_t *pp_cube_values_cell(pp_cube *cube, int metric, int cnode, int location,
                                     const char *setter, int type_ok_mask)
{
    if (!cube)
        return NULL;
    if (metric < 0 || metric >= cube->num_metrics || cnode < 0 || cnode >= cube->num_cnodes ||
        location < 0 || location >= cube->num_threads) {
        pp_cube_set_error(cube, "%s: undefined metric %d, cnode %d or location %d", setter,
                          metric, cnode, location);
        return NULL;
    }
    pp_cube_metric *m = &cube->metrics[metric];
    if (!(type_ok_mask & (1 << m->dtype))) {
        pp_cube_set_error(cube, "%s: metric '%s' has dtype %s", setter, m->uniq_name,
                          pp_cube_dtype_name(m->dtype));
        return NULL;
    }
    if (pp_cube_values_reserve(cube, m, (size_t)cnode, (size_t)location) != 0) {
        pp_cube_set_error(cube, "out of memory storing values of metric '%s'", m->uniq_name);
        return NULL;
    }
    return &m->values[(size_t)cnode * m->cols + (size_t)location];
}

#define PP_CUBE_MASK(dtype) (1 << (dtype))
#define PP_CUBE_ANY_DOUBLE                                                                     \
    (PP_CUBE_MASK(PP_CUBE_DOUBLE) | PP_CUBE_MASK(PP_CUBE_MINDOUBLE) |                            \
     PP_CUBE_MASK(PP_CUBE_MAXDOUBLE))

int pp_cube_set_uint64(pp_cube *cube, int metric, int cnode, int location, uint64_t value)
{
    uint64_t *cell = pp_cube_values_cell(cube, metric, cnode, location, "pp_cube_set_uint64",
                                         PP_CUBE_MASK(PP_CUBE_UINT64));
    if (!cell)
        return -1;
    *cell = value;
    return 0;
}

int pp_cube_set_int64(pp_cube *cube, int metric, int cnode, int location, int64_t value)
{
    uint64_t *cell = pp_cube_values_cell(cube, metric, cnode, location, "pp_cube_set_int64",
                                         PP_CUBE_MASK(PP_CUBE_INT64));
    if (!cell)
        return -1;
    memcpy(cell, &value, sizeof value);
    return 0;
}

int pp_cube_set_double(pp_cube *cube, int metric, int cnode, int location, double value)
{
    uint64_t *cell = pp_cube_values_cell(cube, metric, cnode, location, "pp_cube_set_double",
                                         PP_CUBE_ANY_DOUBLE);
    if (!cell)
        return -1;
    memcpy(cell, &value, sizeof value);
    return 0;
}

int pp_cube_add_uint64(pp_cube *cube, int metric, int cnode, int location, uint64_t value)
{
    uint64_t *cell = pp_cube_values_cell(cube, metric, cnode, location, "pp_cube_add_uint64",
                                         PP_CUBE_MASK(PP_CUBE_UINT64));
    if (!cell)
        return -1;
    *cell += value;
    return 0;
}

int pp_cube_add_int64(pp_cube *cube, int metric, int cnode, int location, int64_t value)
{
    uint64_t *cell = pp_cube_values_cell(cube, metric, cnode, location, "pp_cube_add_int64",
                                         PP_CUBE_MASK(PP_CUBE_INT64));
    if (!cell)
        return -1;
    /* two's complement addition on the bit pattern: no signed overflow UB */
    *cell += (uint64_t)value;
    return 0;
}

int pp_cube_add_double(pp_cube *cube, int metric, int cnode, int location, double value)
{
    uint64_t *cell = pp_cube_values_cell(cube, metric, cnode, location, "pp_cube_add_double",
                                         PP_CUBE_MASK(PP_CUBE_DOUBLE));
    if (!cell)
        return -1;
    double sum;
    memcpy(&sum, cell, sizeof sum);
    sum += value;
    memcpy(cell, &sum, sizeof sum);
    return 0;
}
