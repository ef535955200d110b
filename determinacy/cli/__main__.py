"""`python -m determinacy.cli`, as the tests start it."""

import os
import sys

from determinacy.cli import main

main(prog_name=os.path.basename(sys.argv[0]))
