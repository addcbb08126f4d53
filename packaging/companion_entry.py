"""Entry point of the frozen build: what the ``companion`` console script does."""

import sys

from companion.cli import main

if __name__ == "__main__":
    sys.exit(main())
