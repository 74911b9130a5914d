/* The system tree of the CUBE file: machine -> node (host) -> process ->
 * thread, from the unified profile's locations table.
 *
 * Location ids are the data columns, so the threads are defined in column
 * order; a host's node is defined where its first location comes, a process
 * where its threads (adjacent columns) begin.  The processes of one host
 * thus sit below one node even when the columns interleave hosts (document
 * order may differ from id order: doc/cube4-layout.md). */
#include "profile/pp_profile_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cube-writer/pp_cube.h"
#include "profile/pp_profile_output.h"

int pp_profile_system_define(pp_cube *cube, const pp_unified *u)
{
    int machine = pp_cube_def_system_node(cube, -1, "machine Linux", "machine");
    if (machine < 0)
        return -1;
    /* distinct hosts so far and their nodes */
    uint32_t n = u->n_locations, n_hosts = 0;
    const char **hosts = malloc((n ? n : 1) * sizeof *hosts);
    int *nodes = malloc((n ? n : 1) * sizeof *nodes);
    int rc = hosts && nodes ? 0 : -1;
    int process = -1;
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        const pp_unified_location *l = &u->locations[i], *prev = i ? l - 1 : NULL;
        /* a process's threads are adjacent columns */
        if (!prev || prev->rank != l->rank || strcmp(prev->host, l->host) != 0) {
            uint32_t h = 0;
            while (h < n_hosts && strcmp(hosts[h], l->host) != 0)
                h++;
            if (h == n_hosts) {
                char name[300];
                snprintf(name, sizeof name, "node %s", l->host);
                hosts[h] = l->host;
                nodes[h] = pp_cube_def_system_node(cube, machine, name, "node");
                n_hosts++;
            }
            process = nodes[h] < 0 ? -1 : pp_cube_def_process(cube, nodes[h], l->process, l->rank);
        }
        char thread[32];
        if (l->thread == 0)
            snprintf(thread, sizeof thread, "Master thread");
        else
            snprintf(thread, sizeof thread, "OMP thread %u", l->thread);
        if (process < 0 || pp_cube_def_thread(cube, process, thread, (int)l->thread) != (int)i)
            rc = -1;
    }
    free(hosts);
    free(nodes);
    return rc;
}
