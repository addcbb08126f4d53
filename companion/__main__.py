"""``python -m companion`` does what the ``companion`` console script does."""

from companion.cli import main

raise SystemExit(main())
