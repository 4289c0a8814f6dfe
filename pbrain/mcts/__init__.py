"""Monte Carlo tree search over a small game interface, with gomoku's game, policy and player."""
