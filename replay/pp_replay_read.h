/* What the reader's two files share (pp_replay_read.c: the reader and the
 * definitions; pp_replay_events.c: the events), in OTF2's types. */
#ifndef PP_REPLAY_READ_H
#define PP_REPLAY_READ_H

#include "replay/pp_replay.h"

#include <otf2/otf2.h>

/* The string a definition names by ref ("" for none). */
const char *pp_replay_string(const pp_replay *r, OTF2_StringRef ref);
/* Every event callback of the replay into ec (the user data: the pp_replay). */
void pp_replay_event_callbacks(OTF2_GlobalEvtReaderCallbacks *ec);

#endif
