"""MCP tools in the task (``-T mcp=...``) and the math MCP server shipped with it (``gsm8k-mcp``).

``config`` reads the server a user names (a command line, a URL, a Claude Desktop or mcpbr JSON
or YAML file) into Inspect's MCP server objects; ``agent`` runs the model with that server's
tools under the agent loop's limits; ``server`` is the shipped calculator and Python runner.
"""
