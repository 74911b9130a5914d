# test/unit
