"""`python -m determinacy`: the same command line as `determinacy`."""

from determinacy.cli import main

main(prog_name="determinacy")
