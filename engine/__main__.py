"""``python -m engine``: the JSON command line."""

from .cli import main

raise SystemExit(main())
