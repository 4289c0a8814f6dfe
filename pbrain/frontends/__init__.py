"""Programs for people over the public API: terminal play (gomoku, Connect Four) and game analysis."""
