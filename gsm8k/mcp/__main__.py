"""``python -m gsm8k.mcp``: the same as ``gsm8k-mcp``."""

from gsm8k.mcp.server import main

raise SystemExit(main())
