"""`pbrain-pentad serve`: the board in the browser (the server, the tables of its games, the page)."""
