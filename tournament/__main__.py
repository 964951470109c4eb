"""`python -m tournament run|report ...`: the tournament commands without the root CLI."""

import sys

from tournament.cli import main

sys.exit(main())
