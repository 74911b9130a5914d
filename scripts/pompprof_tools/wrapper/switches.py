"""The wrapper's on/off settings in the environment (POMPPROF_FUNCTIONS,
POMPPROF_MERGE_CALLS), in the words the library takes for its own
(lib/pp_config.c)."""

from __future__ import annotations

import os

TRUE_WORDS = ("1", "yes", "true", "on")
FALSE_WORDS = ("0", "no", "false", "off")


def switch(name: str, default: bool) -> bool:
    """Setting name on or off as its value says; default when it is unset or
    says neither."""
    value = os.environ.get(name, "").strip().lower()
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS:
        return False
    return default
