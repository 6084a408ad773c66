"""``python -m hokm`` runs the ``hokm`` command."""

import sys

from hokm.cli import main

sys.exit(main())
