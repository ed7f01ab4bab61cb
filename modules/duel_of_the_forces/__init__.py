MODULE = "dotf"
