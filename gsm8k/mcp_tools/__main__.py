"""``python -m gsm8k.mcp_tools``: the same as ``gsm8k-mcp``."""

from gsm8k.mcp_tools.server import main

raise SystemExit(main())
