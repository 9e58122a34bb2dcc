"""``python -m numflow.cluster``: see ``numflow.cluster.launch``."""

import sys

from numflow.cluster.launch import main

sys.exit(main())
