"""``python -m benchmarks`` = ``prover-bench``."""

import sys

from .cli import main

sys.exit(main())
