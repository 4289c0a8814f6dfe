"""The board's vocabulary and state: rules, geometry, line patterns, their precomputed tables, the incremental
board and the shapes a person names."""
