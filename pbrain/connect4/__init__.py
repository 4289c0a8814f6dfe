"""Connect Four: a bitboard, an exact solver, the MCTS policy and the players."""
