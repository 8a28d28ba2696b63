"""``python -m gsm8k.data.fresh``: the same as ``gsm8k-fresh``."""

from gsm8k.data.fresh.cli import main

raise SystemExit(main())
